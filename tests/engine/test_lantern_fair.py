"""Lantern Fair (tests/fixtures/lantern-fair): a small data game of our own using every way cards change owner with
majorities and ``end.stuck`` together: a lantern given to another player's stall (``card.to_whose: target``), two
stalls swapped whole (``swap``), majorities per colour and of glow, and an end when the player to act can do nothing.

The spec validates clean; random games all end because the player to act is stuck (the spec has no turn limit, and
no game reaches a dead end), keep every card, use every option, and score what the two majorities say read seat by seat.
"""

from __future__ import annotations

import random
from pathlib import Path

from cardgen.catalogue import validate_folder
from cardgen.engine.core import Termination
from cardgen.engine.interpreter import DataState
from cardgen.findings import Severity

from engine.spec_copies import data_game

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "lantern-fair"


def _places(amounts: list[int], points: list[int], ties: str) -> list[int]:
    """A majority read seat by seat: place = seats with more, level = seats with as many; no amount, no place."""
    out = []
    for amount in amounts:
        place, level = sum(1 for a in amounts if a > amount), sum(1 for a in amounts if a == amount)
        filled = [points[p] if p < len(points) else 0 for p in range(place, place + level)]
        out.append(0 if amount <= 0 else sum(filled) // level if ties == "share" else filled[0] if ties == "full" or level == 1 else 0)
    return out


def test_the_fixture_validates_clean() -> None:
    findings = validate_folder(FIXTURE, kinds=("static",)).findings
    assert [f.render() for f in findings if f.severity in (Severity.ERROR, Severity.WARNING)] == []


def test_random_games_end_stuck_keep_every_card_and_score_the_majorities() -> None:
    for players in (2, 3, 4):
        game = data_game(FIXTURE, players)
        colour, glow = game.tables.field_values["colour"], game.tables.field_values["glow"]
        rng = random.Random(players)
        used: set[str] = set()
        for seed in range(25):
            state = game.new_initial_state(seed)
            assert isinstance(state, DataState)
            while not state.is_terminal():
                actions = state.legal_actions()
                assert actions, "a dead end: end.stuck should have ended the game"
                state.apply_action(rng.choice(actions))
                assert state.conservation_errors() == []
            assert state.termination() is Termination.NORMAL
            stuck = state.seat  # the seat to act: nothing in hand, the crate empty, its one trade made
            assert state.z[game.slot("hand", stuck)] == [] and state.z[game.slot("crate")] == []
            assert state.c[game.tables.counter_index["trades"] + stuck] == 1
            stalls = [state.z[game.slot("stall", seat)] for seat in range(players)]
            expected = [0] * players
            for value in ("red", "blue", "green"):
                amounts = [sum(1 for card in stall if colour[card] == value) for stall in stalls]
                expected = [e + p for e, p in zip(expected, _places(amounts, [4, 1], "share"))]
            expected = [e + p for e, p in zip(expected, _places([sum(glow[card] for card in stall) for stall in stalls], [3], "full"))]
            assert state.scores() == expected
            used.update(key for key, n in state.usage().items() if n)
        assert {"option:act.hang", "option:act.gift", "option:act.fetch", "option:act.trade"} <= used


def test_the_rulebook_says_the_stuck_end_alone_without_also(tmp_path: Path) -> None:
    """With ``end.stuck`` the only end, the sentence is the end itself, not "also" (there is nothing else)."""
    from cardgen.rulebook.i18n import translations
    from cardgen.rulebook.rules_summary import rules_summary
    from cardgen.spec.load import load_spec
    from engine.spec_copies import edited_copy

    def with_a_limit(data: dict[str, object]) -> None:
        rules = data["rules"]
        assert isinstance(rules, dict)
        rules["end"]["turn_limit"] = 80

    for change, also in ((lambda data: None, False), (with_a_limit, True)):
        loaded = load_spec(edited_copy(FIXTURE, tmp_path / str(also), change))
        assert loaded.spec is not None
        for locale, alone, after in (("en", "The game ends as soon as the player", "The game also ends as soon as the player"),
                                     ("pt_BR", "O jogo acaba assim que o jogador", "O jogo também acaba assim que o jogador")):
            summary = rules_summary(loaded.spec, locale, translations(locale))
            assert summary is not None
            text = str(summary["end"])
            assert (after in text) if also else (alone in text and after not in text), (locale, summary["end"])
