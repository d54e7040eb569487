"""Benchmarks: each prints its figures as the last lines, ``name: value unit``."""
