"""Whole games of random legal actions (also run under the capped MicroPython heap)."""

from engine import codec
from engine.rules import PRESETS, preset
from tools.mp.randomplay import play


def test_four_seat_game_of_every_preset_ends_with_a_winner():
    for i, key in enumerate(PRESETS):
        game, n = play(preset(key), 4, 11 + i)
        assert game.phase == "over", key
        assert 0 <= game.winner < 4
        assert n > 10
        for seat in game.seats:
            assert seat.score % 50 == 0 and seat.score >= 0


def test_saves_restore_identically_at_every_step():
    def check(game):
        again = codec.decode_game(codec.encode_game(game), game.dice)
        assert again == game
        assert again.legal_actions() == game.legal_actions()

    game, n = play(preset("punktlandung"), 3, 5, each=check)
    assert game.phase == "over"


def test_same_seed_same_game():
    a, na = play(preset("zehntausend"), 4, 42)
    b, nb = play(preset("zehntausend"), 4, 42)
    assert na == nb and a == b
