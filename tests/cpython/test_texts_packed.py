"""The packed texts in firmware/ are generated from tools/texts and current."""

from tools.texts import gen


def test_packed_texts_are_up_to_date():
    assert gen.main(["--check"]) == 0
