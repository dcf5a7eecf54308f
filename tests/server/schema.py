"""Every message the tests see, checked against docs/protocol.schema.json
(the protocol's JSON Schema, draft 2020-12): conftest.py hands `check` to
server.client, which calls it for every WebSocket message it receives and
every JSON answer of the room API. A message the schema does not
describe fails the test that received it, and so does a refusal with
one of the server's own reasons whose `values` are not what its text
needs (one per %d or %s, server/reasons.py)."""

import json
from pathlib import Path

from jsonschema import Draft202012Validator

from server.reasons import TEXTS

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "docs" / "protocol.schema.json")
                    .read_text(encoding="utf-8"))
Draft202012Validator.check_schema(SCHEMA)
_validators = {}


def validator(name):
    """The validator of definition `name` (#/$defs/NAME)."""
    v = _validators.get(name)
    if v is None:
        v = Draft202012Validator(dict(SCHEMA, **{"$ref": "#/$defs/" + name}))
        _validators[name] = v
    return v


def problems(name, msg):
    """What is wrong with `msg` as a `name`: a list of texts (empty: valid)."""
    return ["%s at %s" % (e.message[:300], "/".join(str(p) for p in e.absolute_path) or "the top")
            for e in validator(name).iter_errors(msg)]


def check(name, msg):
    """AssertionError when `msg` is not a valid `name`."""
    found = problems(name, msg)
    if not found and isinstance(msg, dict) and msg.get("why") in TEXTS["en"] and (
            name == "http_refusal" or name == "server_message" and msg.get("t") == "no"):
        need = TEXTS["en"][msg["why"]].count("%")
        if len(msg["values"]) != need:
            found = ["%r has %d values, its text takes %d" % (msg["why"], len(msg["values"]),
                                                              need)]
    if found:
        raise AssertionError("not a %s of docs/protocol.schema.json: %s\n%s"
                             % (name, "; ".join(found[:3]), json.dumps(msg)[:2000]))
