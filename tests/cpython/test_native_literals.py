"""No viper function of the device code loads a constant from a literal pool.

The armv6m native emitter (MicroPython's py/asmthumb.c,
asm_thumb_mov_reg_i32_optimised) builds an integer constant from
instructions when it is a byte, a byte shifted left, or fits 16 bits;
anything else becomes an `ldr rX, [pc, #0]` of a word placed in the code,
which finds its word only when the code starts on a 4-byte boundary. Code
loaded from a .mpy lies in the heap (16-byte blocks), but frozen native code
need not be aligned so: firmware.native.find_text's mask 0xFFFFFF read as
another number in a firmware with the game frozen in, and the key search
missed every text. This reads the source as the emitter would see it.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEVICE = ("engine", "firmware", "boards")


def needs_literal(value):
    """True when the armv6m emitter loads int `value` from a literal word."""
    if 0 <= value <= 0xFF:
        return False
    if value < 0 and (value * 2) & 0xFFFFFFFF:  # made positive, then negated
        value = -value
    value &= 0xFFFFFFFF
    if value == 0:
        return False
    clz = 32 - value.bit_length()
    ctz = (value & -value).bit_length() - 1
    if clz + ctz >= 24:  # a byte shifted left
        return False
    return value > 0xFFFF


def _native_functions():
    for folder in DEVICE:
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(), str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef) and any(
                        isinstance(d, ast.Attribute) and d.attr in ("viper", "native")
                        for d in node.decorator_list):
                    yield path, node


def _constants(func):
    """The int constants of `func`'s body as the compiler folds them
    (a unary minus on a literal is one constant)."""
    for node in ast.walk(func):
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) \
                and isinstance(node.operand, ast.Constant) and type(node.operand.value) is int:
            yield node.lineno, -node.operand.value
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            yield node.lineno, node.value


def test_the_rule_matches_the_emitter():
    assert not needs_literal(0x9DC5)  # 16 bits: mov, lsl, add
    assert not needs_literal(0x110000)  # 0x11 << 16
    assert not needs_literal(-2)  # mov, neg
    assert needs_literal(0xFFFFFF)
    assert needs_literal(0x12345)


def test_no_native_constant_needs_a_literal():
    found = list(_native_functions())
    assert found, "no viper functions found: the check would pass on nothing"
    bad = ["%s:%d %s: %#x" % (path.relative_to(ROOT), line, func.name, value)
           for path, func in found for line, value in _constants(func) if needs_literal(value)]
    assert bad == []
