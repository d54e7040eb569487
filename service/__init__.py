"""The Flask service (``create_app``) and the ``bingfa`` command line."""

from __future__ import annotations


def create_app(config=None):
    """Imported lazily so that ``service.cli`` and ``events.writepath`` need no Flask."""
    from service.app import create_app as factory

    return factory(config)
