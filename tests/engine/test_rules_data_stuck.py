"""``end.stuck``: a position where the seat to decide has nothing it may do ends the game (the issue's "no legal
moves" end), instead of being a dead end that `cardgen check` reports.

Crazy Eights (specs/crazy-eights) without its `pass` option: a player who cannot play, with the stock empty or
the draws of the turn used up, is stuck. Without `end.stuck` such games are dead ends; with it they end normally,
and every other game plays exactly as before.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from cardgen.catalogue import validate_folder
from cardgen.engine.agents import make_agent
from cardgen.engine.playout import DEAD_END, play_game
from cardgen.findings import Severity
from cardgen.rulebook.i18n import translations
from cardgen.rulebook.rules_summary import rules_summary
from cardgen.spec.load import load_spec

from engine.spec_copies import data_game, edited_copy

CRAZY_EIGHTS = Path(__file__).resolve().parents[2] / "specs" / "crazy-eights"


def _no_pass(data: dict[str, Any]) -> None:
    options = data["rules"]["turn"][0]["options"]
    options[:] = [option for option in options if option["id"] != "pass"]
    data["rules"]["end"].pop("all_pass", None)


def _stuck(data: dict[str, Any]) -> None:
    data["rules"]["end"]["stuck"] = True


def _terminations(folder: Path, games: int) -> list[str]:
    game = data_game(folder, 3)
    agents = [make_agent("random", game) for _ in range(3)]
    return [play_game(game, agents, seed).termination for seed in range(games)]


def test_without_it_a_stuck_seat_is_a_dead_end(tmp_path: Path) -> None:
    assert DEAD_END in _terminations(edited_copy(CRAZY_EIGHTS, tmp_path, _no_pass), 200)


def test_with_it_the_game_ends_there(tmp_path: Path) -> None:
    folder = edited_copy(CRAZY_EIGHTS, tmp_path, _no_pass, _stuck)
    ends = _terminations(folder, 200)
    assert DEAD_END not in ends
    game = data_game(folder, 3)
    rng = random.Random(5)
    stuck_ends = 0
    for seed in range(200):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        hands = [len(state.z[game.slot("hand", seat)]) for seat in range(3)]
        if min(hands) > 0:  # nobody went out: the game ended because the seat to decide was stuck
            stuck_ends += 1
            assert state.legal_actions() == []
    assert stuck_ends > 0


def test_games_that_never_get_stuck_play_as_before(tmp_path: Path) -> None:
    plain = data_game(CRAZY_EIGHTS, 2)
    marked = data_game(edited_copy(CRAZY_EIGHTS, tmp_path, _stuck), 2)
    for seed in range(30):
        a, b = plain.new_initial_state(seed), marked.new_initial_state(seed)
        rng = random.Random(seed)
        while not a.is_terminal():
            action = rng.choice(a.legal_actions())
            assert b.legal_actions() == a.legal_actions()
            a.apply_action(action)
            b.apply_action(action)
        assert b.is_terminal() and b.scores() == a.scores()


def test_the_rulebook_says_it_and_the_copy_is_clean(tmp_path: Path) -> None:
    folder = edited_copy(CRAZY_EIGHTS, tmp_path, _no_pass, _stuck)
    assert [f.render() for f in validate_folder(folder, kinds=("static",)).findings if f.severity is Severity.ERROR] == []
    loaded = load_spec(folder)
    assert loaded.spec is not None
    for locale, words in (("en", "The game also ends as soon as the player who must decide has nothing they may do."),
                          ("pt_BR", "O jogo também acaba assim que o jogador que deve decidir não tem nada que possa fazer.")):
        summary = rules_summary(loaded.spec, locale, translations(locale))
        assert summary is not None and words in summary["end"]
