"""Replay store: archives of finished games, replay to any step, audit and verification."""
