"""The app's computer players: plans from the shipped tables (read from the
file piece by piece where the reader can open files), from the flash cache,
or adopted after solving, and what happens when a copy is damaged or the
cache cannot be written."""

from engine.plan_solver import solve_plan
from engine.rules import preset
from firmware.players import Computers, plan_file
from firmware.store import DirFS
from tools.fakes.memfs import MemFS

RULES = preset("fuenf")


class FullFS(MemFS):
    """A store whose writes fail the way `kind` says."""

    def __init__(self, kind):
        MemFS.__init__(self)
        self.kind = kind

    def write(self, name, data):
        """Fail: no room on flash, or no block on the heap."""
        raise self.kind("full")


def test_the_shipped_plan_is_read_from_its_file():
    players = Computers(RULES, DirFS("tables"))
    plan = players.stored_plan()
    assert plan is not None and plan.threshold(1) == 200
    assert not players.needs_solving("profi")
    assert players.bot("profi").plan is plan


def test_a_damaged_cache_counts_as_no_plan():
    fs = MemFS()
    blob = bytearray(solve_plan(RULES).to_bytes())
    blob[len(blob) // 2] ^= 1
    fs.write(plan_file(RULES), bytes(blob))
    players = Computers(RULES, None, fs)
    assert players.stored_plan() is None and players.needs_solving("profi")
    assert not players.needs_solving("mutig")


def test_a_solved_plan_is_cached_and_read_back():
    fs = MemFS()
    players = Computers(RULES, None, fs)
    players.adopt(solve_plan(RULES))
    again = Computers(RULES, None, fs)
    assert again.stored_plan().limits == players.plan.limits


def test_a_cache_that_cannot_be_written_loses_nothing():
    for kind in (OSError, MemoryError):
        players = Computers(RULES, None, FullFS(kind))
        plan = solve_plan(RULES)
        players.adopt(plan)  # no exception: the game goes on
        assert players.plan is plan and not players.needs_solving("profi")
