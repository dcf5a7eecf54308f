"""The docs keep their promises where a test can check them.

README.md and every Markdown file under docs/ are read; in each:

- every `make TARGET` in a code span or a code block names a target of the
  Makefile;
- every `python -m MODULE` and `python path/to/script.py` (also with
  `.venv/bin/python` or `python3`) in a code span or block names a module
  or script of this repository that answers `--help` with exit status 0;
- every relative link and image, `[text](path#anchor)`, names a file or
  folder that exists, and its `#anchor` a heading of that Markdown file
  (GitHub's anchors: lower case, punctuation dropped, spaces to hyphens).

The checker is plain functions (`problems`), so the tests below also run it
on small files made to be wrong: a check that cannot fail proves nothing.
"""

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

FENCE = re.compile(r"^```.*?$(.*?)^```", re.M | re.S)
SPAN = re.compile(r"(`+)(.+?)\1", re.S)
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.M)
MAKE = re.compile(r"(?:^|[\s;(&|])make\s+([A-Za-z][\w-]*)")
PYTHON = re.compile(r"(?:^|[\s;(&|])(?:\.venv/bin/)?python3?\s+"
                    r"(?:-m\s+([A-Za-z_][\w.]*)|([\w./-]+\.py))")
RULE = re.compile(r"^([A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*)*)\s*:(?!=)", re.M)


def doc_files(root=ROOT):
    """README.md and every Markdown file under docs/."""
    return [root / "README.md"] + sorted((root / "docs").rglob("*.md"))


def make_targets(makefile):
    """Every target a rule of the Makefile defines."""
    targets = set()
    for m in RULE.finditer(makefile.read_text(encoding="utf-8")):
        targets.update(m.group(1).split())
    return targets


def code_texts(text):
    """The text of every code block and code span, blocks first."""
    blocks = [m.group(1) for m in FENCE.finditer(text)]
    rest = FENCE.sub("", text)
    return blocks + [m.group(2) for m in SPAN.finditer(rest)]


def commands(text):
    """(kind, name) for every make target and Python module or script the code names."""
    found = []
    for code in code_texts(text):
        code = code.replace("\\\n", " ")
        found += [("make", m.group(1)) for m in MAKE.finditer(code)]
        for m in PYTHON.finditer(code):
            found.append(("module", m.group(1)) if m.group(1) else ("script", m.group(2)))
    return found


def slug(heading):
    """The anchor GitHub gives a heading."""
    s = re.sub(r"[`*]", "", heading.strip().lower())
    s = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", s)
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def anchors(path):
    """The anchors of a Markdown file's headings (GitHub numbers repeats -1, -2, ...)."""
    seen = {}
    out = set()
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    for m in HEADING.finditer(text):
        s = slug(m.group(1))
        n = seen.get(s, 0)
        seen[s] = n + 1
        out.add(s if n == 0 else "%s-%d" % (s, n))
    return out


def links(text):
    """Every link and image target outside code."""
    prose = SPAN.sub("", FENCE.sub("", text))
    return [m.group(1) for m in LINK.finditer(prose)]


def link_problems(path):
    """What is wrong with the relative links and images of one Markdown file."""
    out = []
    for target in links(path.read_text(encoding="utf-8")):
        if re.match(r"[a-z][\w+.-]*:", target):  # http:, https:, mailto:
            continue
        file_part, _, anchor = target.partition("#")
        dest = (path.parent / file_part).resolve() if file_part else path
        if not dest.exists():
            out.append("%s: link to a missing file: %s" % (path.name, target))
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            out.append("%s: link to a missing heading: %s" % (path.name, target))
    return out


def answers_help(argv, cwd):
    """None when `argv --help` exits 0 with some output, else what went wrong."""
    try:
        p = subprocess.run(argv + ["--help"], cwd=cwd, capture_output=True, text=True,
                           timeout=120)
    except subprocess.TimeoutExpired:
        return "did not answer --help within 120 s"
    if p.returncode != 0 or not p.stdout.strip():
        return "--help exited %d: %s" % (p.returncode, (p.stderr or p.stdout).strip()[-300:])
    return None


def installed(top):
    """Whether a top-level module outside the repository can be imported (pytest, ...)."""
    return importlib.util.find_spec(top) is not None


def command_problems(paths, root=ROOT, run=answers_help):
    """What is wrong with the commands the files name; each module is asked once."""
    targets = make_targets(root / "Makefile")
    out = []
    asked = {}
    for path in paths:
        for kind, name in commands(path.read_text(encoding="utf-8")):
            if kind == "make":
                if name not in targets:
                    out.append("%s: `make %s`: no such target in the Makefile" % (path.name, name))
                continue
            if kind == "module":
                argv = [sys.executable, "-m", name]
                where = root / (name.replace(".", "/") + ".py")
                top = name.split(".")[0]
                exists = (where.exists() or (root / name.replace(".", "/") / "__main__.py").exists()
                          or (not (root / top).exists() and installed(top)))
            else:
                argv = [sys.executable, name]
                exists = (root / name).exists()
            if not exists:
                out.append("%s: `python %s`: no such module or script here" % (path.name, name))
                continue
            key = tuple(argv[1:])
            if key not in asked:
                asked[key] = run(argv, root)
            if asked[key]:
                out.append("%s: `python %s`: %s" % (path.name, name, asked[key]))
    return out


# The repository's own docs.


def test_the_docs_are_found():
    names = {p.relative_to(ROOT).as_posix() for p in doc_files()}
    assert {"README.md", "docs/architecture.md", "docs/rules.md"} <= names


@pytest.mark.parametrize("path", doc_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_link_and_image_resolves(path):
    assert link_problems(path) == []


def test_every_command_exists():
    assert command_problems(doc_files()) == []


def test_the_readme_is_a_front_door():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 210, "README.md has %d lines (about 200 at most)" % len(lines)


# The checker itself, on files made to be wrong.


def test_a_broken_link_a_missing_image_and_a_wrong_anchor_are_reported(tmp_path):
    (tmp_path / "other.md").write_text("# The other page\n\n## A part of it\n", encoding="utf-8")
    doc = tmp_path / "doc.md"
    doc.write_text(
        "See [it](other.md#a-part-of-it) and [top](other.md) and [here](#mine).\n"
        "# Mine\n"
        "Broken: [gone](gone.md), ![pic](pics/none.png), [bad](other.md#no-such-part),"
        " [self](#nowhere).\nOutside: [web](https://example.org/x.md), `[code](no.md)`.\n",
        encoding="utf-8")
    assert link_problems(doc) == [
        "doc.md: link to a missing file: gone.md",
        "doc.md: link to a missing file: pics/none.png",
        "doc.md: link to a missing heading: other.md#no-such-part",
        "doc.md: link to a missing heading: #nowhere",
    ]


def test_a_good_file_has_no_link_problems(tmp_path):
    (tmp_path / "pics").mkdir()
    (tmp_path / "pics" / "a.png").write_bytes(b"\x89PNG")
    doc = tmp_path / "doc.md"
    doc.write_text("# Its `title`: one, two\n![a](pics/a.png) [t](#its-title-one-two)\n",
                   encoding="utf-8")
    assert link_problems(doc) == []


def test_github_anchors():
    assert slug("Behind a proxy") == "behind-a-proxy"
    assert slug("`make chipbench`: speed on the chip") == "make-chipbench-speed-on-the-chip"
    assert slug("Rooms, seats & the dice check") == "rooms-seats--the-dice-check"
    assert slug("Über 10000") == "über-10000"


def test_unknown_targets_and_modules_are_reported(tmp_path):
    (tmp_path / "Makefile").write_text("all: test\n\ntest sim: x\n\tpython -m x\nV := 1\n",
                                       encoding="utf-8")
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "good.py").write_text("", encoding="utf-8")
    (tmp_path / "tools" / "deaf.py").write_text("", encoding="utf-8")
    doc = tmp_path / "doc.md"
    doc.write_text(
        "Run `make test`, then `make sim BOARD=thumby` and `make nothing`.\n\n"
        "```\nmake all   # everything\n.venv/bin/python -m tools.good --x \\\n   --y\n"
        "python -m tools.missing\npython tools/deaf.py file\n```\n"
        "Prose make V is no command.\n",
        encoding="utf-8")

    def run(argv, cwd):
        return "--help exited 2: nope" if "tools/deaf.py" in argv else None

    assert sorted(command_problems([doc], root=tmp_path, run=run)) == [
        "doc.md: `make nothing`: no such target in the Makefile",
        "doc.md: `python tools.missing`: no such module or script here",
        "doc.md: `python tools/deaf.py`: --help exited 2: nope",
    ]


def test_a_module_that_ignores_help_is_caught(tmp_path):
    (tmp_path / "loud.py").write_text("import sys\nsys.exit(3)\n", encoding="utf-8")
    (tmp_path / "kind.py").write_text("print('usage: kind')\n", encoding="utf-8")
    assert "exited 3" in answers_help([sys.executable, "loud.py"], tmp_path)
    assert answers_help([sys.executable, "kind.py"], tmp_path) is None
