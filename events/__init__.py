"""Event envelope, codec and schemas, the Redis Streams event store, projector, snapshots.

Built by the event-store issue; ``games`` is the only package of ours it may import.
"""
