"""Followers of the projection: one that fails is followed again on the retry, because
the position that makes a redelivery a no-op is written only after them."""

from __future__ import annotations

import pytest

from events.readmodels import ReadModels
from events.store import InMemoryEventStore
from events.writepath import WritePath


class Flaky:
    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.seen: list[tuple[str, int]] = []

    def follow(self, game, entries) -> None:
        if self.failures:
            self.failures -= 1
            raise ConnectionError("the follower's Redis went away")
        self.seen.append((game.game_id, entries.version))

    def delete_all(self) -> int:
        return 0


def test_a_follower_that_failed_is_followed_again_when_the_entry_comes_back(fake_redis):
    store = InMemoryEventStore()
    app = WritePath(store)
    game_id = app.create_game("sun-tzu", {}, {"blue": "human", "red": "human"})
    flaky = Flaky(failures=1)
    models = ReadModels(fake_redis, 4, [flaky])
    version = store.version(game_id)
    with pytest.raises(ConnectionError):
        models.project(store, game_id, version)
    assert models.position(game_id) == 0  # not written: the feed entry stays pending
    assert models.project(store, game_id, version) == "written"
    assert flaky.seen == [(game_id, version)]
    assert models.project(store, game_id, version) == "skipped"  # a redelivery after that
    assert flaky.seen == [(game_id, version)]
