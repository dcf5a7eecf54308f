"""Fault injection for firmware.store on MemFS: power cuts after every
operation, failing writes and damaged bytes (CPython, hypothesis)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import codec
from firmware.store import NoSave, SaveDamaged, SaveFailed, Store
from tools.fakes.memfs import MemFS, PowerCut

KIND = 0x47
NAME = "game"

leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**40), 2**40),
    st.text(max_size=20),
    st.binary(max_size=40),
)
value = st.lists(st.one_of(leaf, st.lists(leaf, max_size=8)), max_size=12)
# How the file system looks before the saves start.
start = st.sampled_from(["empty", "saved", "saved twice", "main damaged", "unfinished", "junk new"])


def prepare(fs, how):
    """Bring `fs` into the start state `how`."""
    s = Store(fs)
    if how == "empty":
        return
    s.save(NAME, KIND, ["first"])
    if how == "saved":
        return
    s.save(NAME, KIND, ["second"])
    if how == "main damaged":
        fs.damage(NAME, flip=8)
    elif how == "unfinished":  # cut after game -> game.bak
        fs.files[NAME + ".new"] = codec.pack(["third"], KIND)
        fs.rename(NAME, NAME + ".bak")
    elif how == "junk new":  # cut while game.new was written
        fs.files[NAME + ".new"] = b"ZT\x47"


def loaded(files, with_note=False):
    """What a reboot would load from a copy of `files`: a value, or the
    exception class (`with_note`: (value, note))."""
    try:
        got, note = Store(MemFS(files)).load(NAME, KIND)
    except (NoSave, SaveDamaged) as e:
        got, note = type(e), None
    return (got, note) if with_note else got


def run_saves(fs, values):
    """Save `values` in turn; return [(value before, value saved)] of the saves begun.

    Stops at the first PowerCut (the save in flight is the last entry).
    """
    s = Store(fs)
    begun = []
    for v in values:
        begun.append((loaded(fs.files), v))
        try:
            s.save(NAME, KIND, v)
        except PowerCut:
            break
    return begun


def count_ops(how, values):
    """The number of file operations `values` take from start state `how`."""
    fs = MemFS()
    prepare(fs, how)
    fs.ops = 0
    run_saves(fs, values)
    return fs.ops


@settings(max_examples=60, deadline=None)
@given(
    how=start, values=st.lists(value, min_size=1, max_size=4), torn=st.none() | st.integers(0, 80)
)
def test_power_cut_after_every_operation(how, values, torn):
    total = count_ops(how, values)
    for cut in range(total + 1):
        fs = MemFS()
        prepare(fs, how)
        fs.power_cut_after(cut, torn)
        begun = run_saves(fs, values)
        before, in_flight = begun[-1]
        assert fs.off == (cut < total)
        fs.power_on()
        got, note = loaded(fs.files, True)
        # The title offers a game exactly when one loads (or all copies are damaged).
        assert Store(MemFS(fs.files)).has(NAME, KIND) == (got is not NoSave), (cut, fs.files)
        if how != "main damaged":  # a cut loses no decision already saved: no alarm
            assert note is None, (cut, note)
        if cut == total:  # no cut: everything saved
            assert got == values[-1]
            continue
        if isinstance(before, type):  # nothing loadable before this save
            # an empty or unfinished name.new of a first save is no save, not a damaged one
            assert got in (in_flight, NoSave), (cut, got)
        else:
            assert got in (in_flight, before), (cut, got, before, in_flight)
        # After the reboot, saving works again and leaves a clean state.
        s = Store(fs)
        s.save(NAME, KIND, ["after"])
        assert s.load(NAME, KIND) == (["after"], None)
        assert NAME + ".new" not in fs.files
        if not isinstance(got, type):  # the value loaded is now the backup
            assert codec.unpack(fs.files[NAME + ".bak"], KIND) == got


@settings(max_examples=60, deadline=None)
@given(how=start, v=value, keep=st.none() | st.integers(0, 80))
def test_failed_write_leaves_previous(how, v, keep):
    fs = MemFS()
    prepare(fs, how)
    before = loaded(fs.files)
    files = dict(fs.files)
    s = Store(fs)
    fs.fail_next_write(keep)
    try:
        s.save(NAME, KIND, v)
    except SaveFailed as e:
        assert "flash full" in e.reason
    else:
        raise AssertionError("the failing write went unnoticed")
    assert s.bytes_written == 0
    assert loaded(fs.files) == before
    if how != "unfinished":  # there the unfinished save was completed first
        files.pop(NAME + ".new", None)  # a junk .new may be cleared away
        assert fs.files == files
    s.save(NAME, KIND, v)
    assert s.load(NAME, KIND) == (v, None)


@settings(max_examples=60, deadline=None)
@given(how=start, values=st.lists(value, min_size=1, max_size=3), data=st.data())
def test_error_at_any_operation(how, values, data):
    total = count_ops(how, values)
    at = data.draw(st.integers(0, total - 1))
    fs = MemFS()
    prepare(fs, how)
    fs.fail_after(at)
    s = Store(fs)
    for v in values:
        before = loaded(fs.files)
        try:
            s.save(NAME, KIND, v)
        except SaveFailed:
            got = loaded(fs.files)
            if isinstance(before, type):
                assert got in (v, NoSave, SaveDamaged)
            else:
                assert got in (before, v)
        else:
            assert loaded(fs.files) == v
    s.save(NAME, KIND, ["after"])
    assert s.load(NAME, KIND) == (["after"], None)


@settings(max_examples=60, deadline=None)
@given(values=st.lists(value, min_size=1, max_size=6))
def test_bytes_written(values):
    fs = MemFS()
    s = Store(fs)
    total = 0
    for v in values:
        n = s.save(NAME, KIND, v)
        assert n == len(codec.pack(v, KIND))
        total += n
        assert s.bytes_written == total
    assert fs.writes == total  # save writes each blob exactly once


@settings(max_examples=100, deadline=None)
@given(
    values=st.lists(value, min_size=2, max_size=3),
    hits=st.lists(
        st.tuples(st.sampled_from(["", ".bak"]), st.integers(0, 400), st.integers(1, 255)),
        min_size=1,
        max_size=4,
    ),
    cut=st.none() | st.integers(0, 400),
)
def test_damage_never_gives_a_wrong_value(values, hits, cut):
    fs = MemFS()
    s = Store(fs)
    for v in values:
        s.save(NAME, KIND, v)
    for suffix, pos, mask in hits:
        blob = fs.files[NAME + suffix]
        fs.damage(NAME + suffix, flip=pos % len(blob), mask=mask)
    if cut is not None:
        fs.damage(NAME, truncate=cut)
    try:
        got, note = s.load(NAME, KIND)
    except SaveDamaged as e:
        assert e.reason
        return
    assert got in (values[-1], values[-2])
    assert (note is None) == (fs.files[NAME] == codec.pack(values[-1], KIND))


@settings(max_examples=30, deadline=None)
@given(cut=st.integers(0, 3))
def test_power_cut_while_clearing_never_brings_back_an_older_copy(cut):
    fs = MemFS()
    s = Store(fs)
    s.save(NAME, KIND, ["first"])
    s.save(NAME, KIND, ["last"])
    fs.power_cut_after(cut)
    try:
        s.clear(NAME)
    except PowerCut:
        pass
    fs.power_on()
    assert loaded(fs.files) in (["last"], NoSave)
