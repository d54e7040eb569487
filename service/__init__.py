"""The Flask service (``create_app``) and the ``bingfa`` command line."""
