"""The English text of an engine refusal, for PC tools (command-line errors,
logs): the device's own text table, filled like `App.tf` fills it."""

from tools.texts.en import TEXTS


def english(key, values=()):
    """TEXTS[key] filled with as many of `values` as it has placeholders
    (the key itself when there is no such text)."""
    text = TEXTS.get(key, key)
    n = text.count("%")
    return text % tuple(values[:n]) if n else text


def rules_problem(err):
    """An engine.rules.RulesError in English, naming its option."""
    label = TEXTS.get("opt_" + err.option, err.option)
    text = english("rule_why_" + err.key, (label,) + tuple(err.values))
    return "rule option '%s': %s" % (err.option, text) if err.option else text
