"""Ui.fit_name: a name gives way so the words around it stay whole, and a
number at its end (the default names 'Spieler 1', 'Spieler 2') stays."""

from simulator.host import Sim


def _ui(tmp_path, board):
    return Sim(board, str(tmp_path / board), 1).app.ui


def test_a_line_that_fits_is_left_alone(tmp_path):
    ui = _ui(tmp_path, "pico_ssd1306_i2c")
    assert ui.fit_name("Weg: %s Nichts", "Anna", ui.w) == "Weg: Anna Nichts"


def test_the_name_gives_way_and_keeps_its_number(tmp_path):
    for board in ("pico_ssd1306_i2c", "thumby"):
        ui = _ui(tmp_path, board)
        width = ui.width("Weg: Spieler 2 Nichts") - 8
        line = ui.fit_name("Weg: %s Nichts", "Spieler 2", width)
        assert ui.width(line) <= width, line
        assert line.startswith("Weg: Sp") and line.endswith("…2 Nichts"), line
        other = ui.fit_name("Weg: %s Nichts", "Spieler 3", width)
        assert other != line  # two default names stay apart


def test_a_name_without_a_number_is_cut_at_its_end(tmp_path):
    ui = _ui(tmp_path, "thumby")
    width = ui.width("Weg: Maximiliane Nichts") - 10
    line = ui.fit_name("Weg: %s Nichts", "Maximiliane", width)
    assert ui.width(line) <= width and line.endswith("… Nichts"), line
    assert line.startswith("Weg: Maxi")
