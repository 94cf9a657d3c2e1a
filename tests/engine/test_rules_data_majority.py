"""Majority scoring (``scoring: - majority``): points for having the most, once or per value of a card field.

Hearts (specs/hearts) with one more scoring item, "for each suit, the most cards taken of it scores
``numbers.suit_first`` points, the second most 2", played by the generic interpreter; the scores are checked
against a per-seat reading of the rule (a seat's place is the number of seats with more; the seats level with
it share the places from there), written independently of the scorer's ranking loop.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from cardgen.catalogue import validate_folder
from cardgen.engine.interpreter import DataState
from cardgen.engine.interpreter.scoring_majority import place_points
from cardgen.findings import Severity
from cardgen.rulebook.i18n import translations
from cardgen.rulebook.rules_summary import rules_summary
from cardgen.spec.load import load_spec

from engine.spec_copies import Change, data_game, edited_copy

HEARTS = Path(__file__).resolve().parents[2] / "specs" / "hearts"


def _majority(**changes: Any) -> Change:
    def change(data: dict[str, Any]) -> None:
        data.setdefault("numbers", {})["suit_first"] = 5
        item = {"zone": "taken", "by": "suit", "points": ["numbers.suit_first", 2]}
        item.update(changes)
        data["rules"]["scoring"].append({"majority": item})

    return change


def _by_seat(amounts: list[int], points: list[int], ties: str) -> list[int]:
    """The rule read seat by seat: place = seats with more; level = seats with as many."""
    out = []
    for amount in amounts:
        if amount <= 0:
            out.append(0)
            continue
        place = sum(1 for other in amounts if other > amount)
        level = sum(1 for other in amounts if other == amount)
        filled = [points[p] if p < len(points) else 0 for p in range(place, place + level)]
        out.append(sum(filled) // level if ties == "share" else filled[0] if ties == "full" or level == 1 else 0)
    return out


@pytest.mark.parametrize("ties", ["share", "full", "none"])
def test_places_agree_with_the_rule_read_seat_by_seat(ties: str) -> None:
    rng = random.Random(7)
    for _ in range(3000):
        amounts = [rng.randint(0, 4) for _ in range(rng.randint(1, 6))]
        points = [rng.randint(-3, 9) for _ in range(rng.randint(1, 4))]
        assert place_points(amounts, points, ties) == _by_seat(amounts, points, ties), (amounts, points, ties)


def test_ties_share_full_and_none() -> None:
    assert place_points([3, 3, 1], [6, 3, 1], "share") == [4, 4, 1]
    assert place_points([3, 3, 1], [6, 3, 1], "full") == [6, 6, 1]
    assert place_points([3, 3, 1], [6, 3, 1], "none") == [0, 0, 1]
    assert place_points([0, 0, 2], [6, 3], "share") == [0, 0, 6]


@pytest.mark.parametrize("players", [3, 4])
def test_hearts_with_suit_majorities_scores_as_the_rule_says(tmp_path: Path, players: int) -> None:
    folder = edited_copy(HEARTS, tmp_path, _majority(ties="share"))
    game = data_game(folder, players)
    suits = {card_id: game.tables.field_values["suit"][design] for design, card_id in enumerate(game.card_ids)}
    rng = random.Random(players)
    for seed in range(30):
        state = game.new_initial_state(seed)
        assert isinstance(state, DataState)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        majority = game.scorers[-1]
        taken = [[game.card_ids[d] for d in state.z[game.slot("taken", seat)]] for seat in range(players)]
        expected = [0] * players
        for suit in sorted(set(suits.values())):
            amounts = [sum(1 for card in cards if suits[card] == suit) for cards in taken]
            expected = [e + s for e, s in zip(expected, _by_seat(amounts, [5, 2], "share"))]
        assert [majority(state, seat) for seat in range(players)] == expected
        assert game.info().max_score >= max(expected)


def test_the_copy_is_clean_and_reads_the_number(tmp_path: Path) -> None:
    result = validate_folder(edited_copy(HEARTS, tmp_path, _majority()), kinds=("static",))
    assert [f.render() for f in result.findings if f.severity is Severity.ERROR] == []


@pytest.mark.parametrize(
    "change,wanted",
    [
        (_majority(zone="trick"), "zone 'trick' is shared"),
        (_majority(by="colour"), "no card field 'colour'"),
        (_majority(count="suit"), "card field 'suit' is not a whole number"),
        (_majority(points=["count(stock)"]), "worked out once, before play"),
        (_majority(points=[10**9]), "over the limit"),
    ],
)
def test_a_broken_majority_is_a_finding_at_its_line(tmp_path: Path, change: Change, wanted: str) -> None:
    result = validate_folder(edited_copy(HEARTS, tmp_path, change), kinds=("static",))
    found = [f for f in result.findings if f.code == "CG175" and wanted in f.message]
    assert found, [f.render() for f in result.findings]


def test_the_rulebook_says_the_majority(tmp_path: Path) -> None:
    loaded = load_spec(edited_copy(HEARTS, tmp_path, _majority(ties="none")))
    assert loaded.spec is not None
    wanted = {
        "en": ("For each suit separately, the players are ranked by the number of cards in their pile of tricks with that value", "5 and 2 points",
               "Players tied for a place score nothing for it"),
        "pt_BR": ("Para cada naipe, separadamente, os jogadores são classificados de acordo com o número de cartas", "5 e 2 pontos",
                  "Jogadores empatados numa colocação não marcam nada por ela"),
    }
    for locale, words in wanted.items():
        summary = rules_summary(loaded.spec, locale, translations(locale))
        assert summary is not None
        for phrase in words:
            assert phrase in str(summary["end"]), (phrase, summary["end"])


def test_one_place_summed_over_a_field_reads_as_a_first_place(tmp_path: Path) -> None:
    loaded = load_spec(edited_copy(HEARTS, tmp_path, _majority(by=None, count="points", points=[3])))
    assert loaded.spec is not None
    summary = rules_summary(loaded.spec, "en", translations("en"))
    assert summary is not None
    assert "The player ranked first by the total penalty of the cards in their pile of tricks scores 3 points." in summary["end"][2]


def test_a_majority_by_a_list_field_is_refused(tmp_path: Path) -> None:
    """Ceratopsians' faces carry two colours each (a palette list): no single value names a contest."""
    folder = edited_copy(
        HEARTS.parent / "ceratopsians", tmp_path,
        lambda data: data["rules"]["scoring"].append({"majority": {"zone": "collection", "by": "colours", "points": [2]}}),
    )
    found = [f for f in validate_folder(folder, kinds=("static",)).findings if f.code == "CG175" and "holds a list" in f.message]
    assert found, [f.render() for f in validate_folder(folder, kinds=("static",)).findings]


@pytest.mark.parametrize("by", [None, "suit"])
def test_one_place_of_one_point_reads_in_the_singular(tmp_path: Path, by: str | None) -> None:
    """A single place worth 1 point: "scores 1 point" (it read "1 points", and "1 pontos" in Portuguese)."""
    loaded = load_spec(edited_copy(HEARTS, tmp_path, _majority(by=by, points=[1])))
    assert loaded.spec is not None
    for locale, wanted, wrong in (("en", "scores 1 point.", "1 points"), ("pt_BR", "marca 1 ponto.", "1 pontos")):
        summary = rules_summary(loaded.spec, locale, translations(locale))
        assert summary is not None
        text = str(summary["end"])
        assert wanted in text and wrong not in text, (locale, summary["end"])
