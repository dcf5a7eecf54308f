"""`make flash` on the emulated Pico: a board with a ROMFS partition that ran
the game from files gets its code by a real `mpremote romfs deploy`,
through the harness's --serial-tcp; its saves stay, and it boots the game
from the partition.

Needs the ROMFS variant's firmware.elf (`make uf2 MICROPYTHON=DIR` builds
it, tools/romfs.py), the bootrom and rp2040js, given as for chipbench in
CHIPBENCH_FIRMWARE, CHIPBENCH_BOOTROM and CHIPBENCH_RP2040JS, and node;
skipped without them. Several minutes: the emulator serves mpremote at
about a quarter of real speed.
"""

import hashlib
import json
import os
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from tools import deploy, romfs
from tools.chipbench import WIRING, mount_image, pack_image
from tools.chipbench.harness import HIL

BOARD = "pico_ssd1306_i2c"
ROM_TO_END = romfs.FLASH_BYTES - romfs.ROMFS_OFFSET  # the harness's flash image: ROMFS + littlefs


def _parts():
    """(firmware, bootrom, rp2040js) or a reason to skip."""
    found = [os.environ.get(v) for v in
             ("CHIPBENCH_FIRMWARE", "CHIPBENCH_BOOTROM", "CHIPBENCH_RP2040JS")]
    if not all(found) or not all(Path(p).exists() for p in found):
        return "needs CHIPBENCH_FIRMWARE, CHIPBENCH_BOOTROM and CHIPBENCH_RP2040JS (chipbench)"
    if shutil.which("node") is None:
        return "needs node"
    flash = romfs.elf_flash(Path(found[0]).read_bytes())
    if romfs.partitions(flash).get("ROMFS") != (romfs.ROMFS_OFFSET, romfs.ROMFS_BYTES):
        return "CHIPBENCH_FIRMWARE is not the ROMFS variant's firmware.elf (tools/romfs.py)"
    return found


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _hil(parts, image, out, extra):
    firmware, bootrom, rp2040js = parts
    out.mkdir(parents=True, exist_ok=True)
    cmd = ["node", str(HIL), "--fw", firmware, "--bootrom", bootrom, "--rp2040js", rp2040js,
           "--fs", str(image), "--fs-offset", hex(romfs.ROMFS_OFFSET),
           "--fs-bytes", str(ROM_TO_END), "--out", str(out)] + WIRING[BOARD] + extra
    return subprocess.Popen(cmd, stdout=open(out / "serial.txt", "w"),
                            stderr=open(out / "hil.log", "w"))


def _wait_for_listen(log, proc, timeout_s=120):
    """Until the harness says (in its log) that it serves the port."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError("the harness ended (exit %s) before serving the port"
                                 % proc.returncode)
        if log.exists() and "serial on tcp" in log.read_text():
            return
        time.sleep(0.2)  # polling the log for the line, not waiting out a time
    raise AssertionError("the harness did not serve its port within %d s" % timeout_s)


class Bridge:
    """The board's USB port as a host sees it: one connection to the
    harness for the whole run (the harness takes one client at a time and
    notices a client's leaving only when the emulator gets to it), and a
    local port that mpremote and tools.deploy connect to one after the
    other, as socat's pty does in ../shared/hil/board.sh. What the board
    sends while no one is connected is dropped, as with a closed port."""

    def __init__(self, board_port):
        self.up = socket.create_connection(("127.0.0.1", board_port))
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.client = None
        threading.Thread(target=self._from_board, daemon=True).start()
        threading.Thread(target=self._accept, daemon=True).start()

    def _from_board(self):
        while True:
            try:
                data = self.up.recv(4096)
            except OSError:
                return
            if not data:
                return
            client = self.client
            if client is not None:
                try:
                    client.sendall(data)
                except OSError:
                    pass

    def _accept(self):
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            self.client = client
            while True:
                try:
                    data = client.recv(4096)
                except OSError:
                    data = b""
                if not data:
                    break
                self.up.sendall(data)
            self.client = None
            client.close()

    def close(self):
        self.server.close()
        self.up.close()


def test_make_flash_puts_the_code_into_the_romfs_partition_by_mpremote(tmp_path):
    parts = _parts()
    if isinstance(parts, str):
        pytest.skip(parts)
    # A board that ran the game from files (as on stock firmware), with a save.
    old = tmp_path / "old"
    deploy.stage(BOARD, old, log=lambda *a: None)
    (old / "data" / "zt-save").write_bytes(b"a save")
    lfs = tmp_path / "lfs.img"
    pack_image(old, lfs)
    before = tmp_path / "before.img"
    before.write_bytes(b"\xff" * romfs.ROMFS_BYTES + lfs.read_bytes())
    after = tmp_path / "after.img"
    port = _free_port()
    proc = _hil(parts, before, tmp_path / "flash-run",
                ["--serial-tcp", str(port), "--on-reset", "exit", "--save-fs", str(after)])
    bridge = None
    try:
        _wait_for_listen(tmp_path / "flash-run" / "hil.log", proc)
        bridge = Bridge(port)
        said = []
        copied, _ = deploy.flash(BOARD, port="socket://127.0.0.1:%d" % bridge.port,
                                 log=said.append)
        code = proc.wait(timeout=600)
    finally:
        if bridge is not None:
            bridge.close()
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=60)
    assert code == 5, "the board was not reset at the end (harness exit %s)" % code
    assert any("ROMFS partition" in line for line in said), said
    assert copied >= 1

    flash = after.read_bytes()
    fs = mount_image(flash[romfs.ROMFS_BYTES:])
    manifest = json.loads(fs.open("deploy.json", "rb").read())
    size = manifest["romfs"]["size"]
    assert hashlib.sha256(flash[:size]).hexdigest() == manifest["romfs"]["sha256"]
    assert romfs.image_size(flash[:12]) == size
    top = fs.listdir("/")
    assert not set(romfs.CODE_DIRS) & set(top), top  # they would be imported instead of /rom's
    assert fs.open("data/zt-save", "rb").read() == b"a save"

    # It boots from there: the game's title, no traceback, no REPL.
    (tmp_path / "boot.hil").write_text("wait 2500\nshot title\n")
    boot = _hil(parts, after, tmp_path / "boot-run",
                ["--script", str(tmp_path / "boot.hil"), "--timeout", "600"])
    assert boot.wait(timeout=900) == 0
    report = json.loads((tmp_path / "boot-run" / "report.json").read_text())
    assert report["python_tracebacks"] == 0
    assert report["main_ended_ms"] is None
    assert report["shots"][0]["lit_pixels"] > 0
