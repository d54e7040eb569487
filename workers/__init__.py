"""Celery app and thin tasks; AI opponents and post-game analysis as plain modules."""
