"""The REST API under /api (flask-smorest blueprints)."""
