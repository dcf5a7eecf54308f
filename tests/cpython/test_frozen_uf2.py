"""tools.frozen_uf2 without building: what it checks first and the make
command lines it runs (the build itself takes minutes and a checkout)."""

from tools import frozen_uf2 as fu


def _checkout(tmp_path, submodules=True):
    (tmp_path / "ports" / "rp2").mkdir(parents=True)
    (tmp_path / "ports" / "rp2" / "Makefile").write_text("all:\n")
    if submodules:
        (tmp_path / "lib" / "pico-sdk").mkdir(parents=True)
        (tmp_path / "lib" / "pico-sdk" / "CMakeLists.txt").write_text("")
    return tmp_path


def test_missing_toolchain_names_the_packages(tmp_path):
    found = fu.problems(str(_checkout(tmp_path)), which=lambda name: None)
    assert len(found) == 3
    assert "arm-none-eabi-gcc" in found[0]
    assert "apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi cmake" in found[0]


def test_the_checkout_is_checked(tmp_path):
    on_path = lambda name: "/usr/bin/" + name  # noqa: E731
    assert "MICROPYTHON=" in fu.problems(None, which=on_path)[0]
    assert "not a MicroPython checkout" in fu.problems(str(tmp_path / "nope"), which=on_path)[0]
    bare = _checkout(tmp_path / "bare", submodules=False)
    assert "submodules" in fu.problems(str(bare), which=on_path)[0]
    assert fu.problems(str(_checkout(tmp_path / "ok")), which=on_path) == []


def test_commands_freeze_the_manifest_in_a_build_folder_of_their_own(tmp_path):
    cross, rp2 = fu.commands(str(tmp_path), jobs=2)
    assert cross == ["make", "-C", str(tmp_path.resolve() / "mpy-cross"), "-j2"]
    assert rp2[:3] == ["make", "-C", str(tmp_path.resolve() / "ports" / "rp2")]
    assert "BOARD=RPI_PICO" in rp2
    assert "FROZEN_MANIFEST=%s" % (fu.ROOT / "manifest.py") in rp2
    build = [a for a in rp2 if a.startswith("BUILD=")]
    assert build and build[0] != "BUILD=build-RPI_PICO"  # a stock build stays as it is
    assert not [a for a in rp2 if a.startswith("CMAKE_ARGS")]  # it would replace the port's
    env = fu.build_env(str(tmp_path / "pt"), environ={"PATH": "/bin"})
    assert env == {"PATH": "/bin", "picotool_DIR": str((tmp_path / "pt").resolve())}
    assert fu.built_uf2(str(tmp_path)).parent.name == build[0][len("BUILD="):]


def test_a_build_folder_of_another_tree_is_pointed_at_this_manifest(tmp_path):
    """The port's Makefile hands FROZEN_MANIFEST to cmake only when it makes
    the folder: one configured from another worktree would freeze that
    tree's game unless cmake is told again."""
    build = tmp_path / "ports" / "rp2" / fu.BUILD
    build.mkdir(parents=True)
    cache = build / "CMakeCache.txt"
    cache.write_text("MICROPY_BOARD:STRING=RPI_PICO\n"
                     "MICROPY_FROZEN_MANIFEST:UNINITIALIZED=/elsewhere/manifest.py\n")
    assert fu.cached_manifest(str(tmp_path)) == "/elsewhere/manifest.py"
    cross, cmake, rp2 = fu.commands(str(tmp_path), jobs=2)
    assert cmake == ["cmake", "-S", str(tmp_path.resolve() / "ports" / "rp2"), "-B",
                     str(build.resolve()), "-DMICROPY_FROZEN_MANIFEST=%s" % fu.MANIFEST]
    assert rp2[0] == "make" and cross[0] == "make"
    cache.write_text("MICROPY_FROZEN_MANIFEST:UNINITIALIZED=%s\n" % fu.MANIFEST)
    assert len(fu.commands(str(tmp_path), jobs=2)) == 2  # already this tree's: no cmake


def test_main_stops_before_building(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("MICROPYTHON", raising=False)
    assert fu.main(["--micropython", str(tmp_path / "nope")]) == 2
    assert "not a MicroPython checkout" in capsys.readouterr().err


def test_a_firmware_without_the_game_is_refused(tmp_path):
    stock = tmp_path / "stock.elf"
    stock.write_bytes(b"\x7fELF" + b"main.py" * 10)
    frozen = tmp_path / "frozen.elf"
    frozen.write_bytes(b"\x7fELF firmware/app.py engine/game.py")
    assert not fu.frozen_in(stock) and fu.frozen_in(frozen)
    assert not fu.frozen_in(tmp_path / "none.elf")
