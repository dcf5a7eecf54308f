"""The store's suffixes, the codec kinds of the saves and the table file
names are written once, in firmware/files.py (the engine keeps its own Master table name: it cannot
import firmware/)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SPELLINGS = ('".new"', '".bak"', '"plan-', '"master-', "KIND_")


def test_file_facts_have_one_home():
    found = []
    for path in sorted((ROOT / "firmware").rglob("*.py")):
        if path.name == "files.py":
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if any(s in line for s in SPELLINGS) and "import" not in line and (
                    "KIND_" not in line or " = 0x" in line):
                found.append("%s:%d: %s" % (path.relative_to(ROOT), n, line.strip()))
    assert not found, "\n".join(found)
