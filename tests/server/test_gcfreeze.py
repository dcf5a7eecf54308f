"""server.gcfreeze: the collector's full walk only when the long-lived
objects grew by a quarter, and the real server process running with it.

The policy is tested in this process (installed, then uninstalled: the
test runner's own collector is left as it was)."""

import gc
import weakref

import pytest

from server import gcfreeze
from server.client import http


class Node:
    """A cycle's member: reachable only through itself once dropped."""

    def __init__(self):
        self.me = self


class Clock:
    """gcfreeze's time module: each reading `step` seconds after the last."""

    def __init__(self):
        self.now = 1000.0
        self.step = 60.0  # by default longer than COUNT_EVERY: every count is allowed

    def monotonic(self):
        self.now += self.step
        return self.now


@pytest.fixture
def frozen(monkeypatch):
    """gcfreeze installed for one test; its clock."""
    clock = Clock()
    monkeypatch.setattr(gcfreeze, "time", clock)
    gcfreeze.uninstall()
    gcfreeze._state.update(full=0, thaws=0, counted_at=0.0, counts=0)
    before = gc.get_threshold()
    gcfreeze.install()
    yield clock
    gcfreeze.uninstall()
    assert gc.get_threshold() == before  # the test runner's collector as it was


def test_a_young_cycle_is_collected_as_ever(frozen):
    assert gc.get_threshold()[0] == gcfreeze.YOUNG
    node = Node()
    gone = weakref.ref(node)
    del node
    gc.collect()
    assert gone() is None


def test_an_old_cycle_waits_for_the_frozen_set_to_grow_by_a_quarter(frozen):
    node = Node()
    gone = weakref.ref(node)
    gc.collect()  # node survives a full collection: frozen with the rest
    assert gc.get_freeze_count() > 0
    del node
    gc.collect()
    gc.collect()
    assert gone() is not None, "a frozen cycle is walked only after a thaw"
    assert gcfreeze.stats()["thaws"] == 0

    # The long-lived set grows by more than a quarter: frozen at the next
    # full collection, which thaws; the one after walks everything.
    grown = [[] for _ in range(max(gcfreeze.MIN_GROWTH, gc.get_freeze_count() // 4) + 1000)]
    gc.collect()
    assert gcfreeze.stats()["thaws"] == 1
    gc.collect()
    assert gone() is None
    assert gcfreeze.stats()["full"] == 1
    assert gc.get_freeze_count() >= len(grown)  # frozen again, the new lists with it


def test_an_object_freed_by_its_count_is_freed_while_frozen(frozen):
    data = [[]]
    gc.collect()
    before = gc.get_freeze_count()
    del data
    assert gc.get_freeze_count() == before - 2  # the two lists left the frozen set at once


def test_the_server_process_freezes(server_factory):
    s = server_factory()
    got = http(s.base, "GET", "/api/stats")["gc"]
    assert got["frozen"] > 10_000, got  # the modules and the app, frozen at start
    assert set(got) == {"frozen", "full", "thaws", "counts"}


def test_objects_frozen_and_freed_since_are_not_growth(frozen):
    """Game states promoted and replaced in steady play bring no full walk;
    the same number kept alive does."""
    part = max(gcfreeze.MIN_GROWTH, gc.get_freeze_count() // 4) * 6 // 10
    first = [[] for _ in range(part)]
    gc.collect()
    del first  # frozen, then freed by the count
    second = [[] for _ in range(part)]
    gc.collect()  # frozen since the last full walk: 1.2 quarters; grown: 0.6
    assert gcfreeze.stats()["thaws"] == 0
    third = [[] for _ in range(part)]
    gc.collect()  # grown: 1.2 quarters
    assert gcfreeze.stats()["thaws"] == 1
    assert len(second) == len(third) == part


def test_the_frozen_set_is_counted_at_most_every_count_every_seconds(frozen):
    """Counting walks the whole frozen set: growth near the limit is not
    counted again at every collection, only once COUNT_EVERY has passed."""
    part = max(gcfreeze.MIN_GROWTH, gc.get_freeze_count() // 4) * 6 // 10
    first = [[] for _ in range(part)]
    gc.collect()
    del first
    second = [[] for _ in range(part)]
    gc.collect()  # 1.2 quarters frozen since the full walk: counted, 0.6 grown
    assert gcfreeze.stats()["counts"] == 1
    frozen.step = 0.0  # the clock stands still
    third = [[] for _ in range(part)]
    gc.collect()
    gc.collect()  # grown by 1.2 quarters, but counted a moment ago
    assert gcfreeze.stats()["counts"] == 1 and gcfreeze.stats()["thaws"] == 0
    frozen.now += gcfreeze.COUNT_EVERY
    gc.collect()
    assert gcfreeze.stats()["counts"] == 2 and gcfreeze.stats()["thaws"] == 1
    assert len(second) == len(third) == part
