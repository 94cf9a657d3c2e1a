"""Complete sets, steps taken only when, runs of passes, ends for every seat and at a turn's end, tiebreaks,
cards chosen from the aimed-at seat's zone, and ``min``/``max``/``if else`` in expressions: the rules-data
vocabulary Mausoleum Guardians is written in (specs/mausoleum-guardians), each read directly and, misused,
as a finding at its line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

from cardgen.catalogue import validate_folder
from cardgen.engine.core import make_game
from cardgen.engine.interpreter import DataGame, DataState
from cardgen.findings import Severity
from cardgen.spec.load import load_spec
from cardgen.spec.models import Spec
from cardgen.spec.rules_expr import ExpressionError, parse_expression
from cardgen.spec.rules_check import names_of

from engine.spec_copies import edit_spec, edited_copy, option_of, step_of

SPEC = Path(__file__).resolve().parents[2] / "specs" / "mausoleum-guardians"


@pytest.fixture(scope="module")
def spec() -> Spec:
    loaded = load_spec(SPEC)
    assert loaded.spec is not None
    return loaded.spec


def _game(spec: Spec, players: int = 2) -> DataGame:
    game = make_game(spec, players)
    assert isinstance(game, DataGame)
    return game


def _empty(game: DataGame) -> DataState:
    """A position with every card in the draw pile, seat 0 to play."""
    s = game.new_initial_state(0)
    pile = s.z[game.slot("pile")]
    for slot, zone in enumerate(s.z):
        if slot != game.slot("pile"):
            pile.extend(zone)
            zone.clear()
    return s


def _put(game: DataGame, s: DataState, zone: str, seat: int, *cards: str) -> None:
    for card in cards:
        s.z[game.slot("pile")].remove(game.design(card))
        s.z[game.slot(zone, seat)].append(game.design(card))


def _expr(game: DataGame, source: str) -> Any:
    from cardgen.engine.interpreter.compile import compile_expression

    return compile_expression(source, game.tables)


def test_sets_count_the_scarcest_design_of_the_value(spec: Spec) -> None:
    game = _game(spec)
    s = _empty(game)
    sets = _expr(game, "sets(area, type, 'construction')")
    _put(game, s, "area", 0, "base", "base", "columns", "columns", "pyramid", "pyramid", "statues")
    assert sets(s, 0, 0) == 1 and sets(s, 1, 0) == 0
    _put(game, s, "area", 0, "statues")
    assert sets(s, 0, 0) == 2
    assert _expr(game, "sets(area, type, 'nothing')")(s, 0, 0) == 0  # no design has the value: no set
    assert _expr(game, "min(3, 5) + max(3, 5) + (1 if sets(area, type, 'construction') == 2 else 7)")(s, 0, 0) == 9


def test_sets_score_points_the_bonus_and_the_multiplied_sets(spec: Spec) -> None:
    game = _game(spec)
    s = _empty(game)
    n = spec.numbers
    _put(game, s, "area", 0, "base", "columns", "pyramid", "statues")
    assert s.scores() == [n["set_points"], 0]
    _put(game, s, "area", 0, "base", "columns", "pyramid", "statues")
    assert s.scores()[0] == 2 * n["set_points"] + n["multi_set_bonus"]
    s.c[game.tables.counter_index["doubled"]] = 1  # one set doubled when Mausolo was played (on_play)
    assert s.scores()[0] == 2 * n["set_points"] + n["multi_set_bonus"] + n["set_points"] * (n["mausolo_multiplier"] - 1)
    for card in ("base", "base"):  # both sets broken: the doubled set keeps its points
        s.z[game.slot("area", 0)].remove(game.design(card))
    assert s.scores()[0] == n["set_points"] * (n["mausolo_multiplier"] - 1)


def test_tiebreaks_order_equal_scores(spec: Spec) -> None:
    game = _game(spec, 3)
    s = _empty(game)
    _put(game, s, "row", 1, "artemisia", "architects")
    _put(game, s, "row", 2, "artemisia")
    assert s.scores() == [0, 0, 0] and s.ranking() == [[1], [2], [0]]


def test_a_step_whose_condition_fails_is_passed_over(spec: Spec) -> None:
    """The draw step is taken only while the pile has cards; the hand limit only over the limit, once per card."""
    game = _game(spec)
    s = game.new_initial_state(0)
    assert len(s.z[game.slot("hand", 0)]) == 6 and s.step == 1  # drawn by the forced draw step, now playing
    pass_action = next(a for a in s.legal_actions() if game.options[a // game.width].key == "play.pass")
    s.apply_action(pass_action)
    assert s.current_player() == 0 and {game.options[a // game.width].key for a in s.legal_actions()} == {"limit.discard"}
    s.apply_action(s.legal_actions()[0])
    assert s.seat == 1 and len(s.z[game.slot("hand", 1)]) == 6  # the limit step passed over, seat 1 drew


def test_passes_count_only_with_the_pile_empty_and_a_discard_keeps_the_run(spec: Spec) -> None:
    game = _game(spec)
    s = game.new_initial_state(0)
    s.z[game.slot("discard")].extend(s.z[game.slot("pile")])
    s.z[game.slot("pile")].clear()

    def take(key: str) -> None:
        s.apply_action(next(a for a in s.legal_actions() if game.options[a // game.width].key == key))

    take("play.pass")  # seat 0 drew at the start of its turn and the pile is empty now: this pass counts
    assert s.passes == 1
    take("limit.discard")  # 6 cards: down to the limit, and the run of passes is kept
    assert s.passes == 1 and s.seat == 1
    take("play.pass")
    assert s.is_terminal() and s.passes == 2


def test_the_end_for_every_seat_is_looked_at_when_the_turn_is_over(spec: Spec) -> None:
    game = _game(spec)
    s = _empty(game)
    s.z[game.slot("discard")].extend(s.z[game.slot("pile")])
    s.z[game.slot("pile")].clear()
    _put_discard = s.z[game.slot("discard")]
    _put_discard.remove(game.design("earthquake"))
    s.z[game.slot("hand", 0)].append(game.design("earthquake"))
    _put_discard.remove(game.design("base"))
    s.z[game.slot("area", 1)].append(game.design("base"))
    s.step = 1
    attack = next(a for a in s.legal_actions() if game.options[a // game.width].key == "play.raid")
    s.apply_action(attack)  # every hand and the pile are empty now, but the Earthquake is resolved first
    assert s.is_terminal() and s.z[game.slot("area", 1)] == [] and game.design("base") in s.z[game.slot("discard")]


def test_a_card_is_chosen_from_the_aimed_at_seats_zone(spec: Spec) -> None:
    game = _game(spec)
    s = _empty(game)
    _put(game, s, "hand", 0, "invasion", "pyramid")
    _put(game, s, "area", 1, "base", "statues")
    s.step = 1
    attack = next(a for a in s.legal_actions() if game.options[a // game.width].key == "play.raid")
    s.apply_action(attack)
    seize = s.legal_actions()
    assert {game.options[a // game.width].key for a in seize} == {"invade.seize"} and s.current_player() == 0
    assert sorted(game.card_ids[a % game.width] for a in seize) == ["base", "statues"]
    s.apply_action(next(a for a in seize if a % game.width == game.design("statues")))
    assert game.design("statues") in s.z[game.slot("area", 0)] and s.z[game.slot("area", 1)] == [game.design("base")]


# --- misuse: findings at their line --------------------------------------------------------------------


def _copy(tmp_path: Path) -> Path:
    return edited_copy(SPEC, tmp_path)


_edit = edit_spec


_step = step_of
_option = option_of


def _sets(data: Any) -> Any:
    return data["rules"]["scoring"][0]["one_of_each"]


CASES: list[tuple[str, Callable[[Any], None], str, str]] = [
    ("a step's when names no zone", lambda d: _step(d, "limit").__setitem__("when", "count(hands) > 5"), "count(hands)", "CG175"),
    ("passes that reads no number", lambda d: _option(d, "pass").__setitem__("passes", "count(pile) == numbers.nope"), "numbers.nope", "CG175"),
    ("a set field the decks lack", lambda d: _sets(d).__setitem__("field", "colour"), "field: colour", "CG175"),
    ("a set's points reading the position", lambda d: _sets(d).__setitem__("points", "count(hand)"), "points: count(hand)", "CG175"),
    ("a set's zone that does not exist", lambda d: _sets(d).__setitem__("zone", "yard"), "zone: yard", "CG175"),
    ("a tiebreak that names no zone", lambda d: d["rules"]["tiebreaks"].__setitem__(1, "distinct(rows, id)"), "distinct(rows, id)", "CG175"),
    ("all_seats of a text", lambda d: d["rules"]["end"].__setitem__("all_seats", "min(count(hand), 'x') == 0"), "all_seats", "CG175"),
    ("whose: target on a shared zone", lambda d: _option(d, "unearth")["card"].__setitem__("whose", "target"), "whose: target", "CG175"),
    ("whose: target where nothing aimed", lambda d: _option(d, "build")["card"].__setitem__("whose", "target"), "whose: target", "CG175"),
    ("a step that can never end without its when", lambda d: _step(d, "limit").pop("when"), "id: limit", "CG176"),
]


@pytest.mark.parametrize("name,change,on_line,code", CASES, ids=[c[0] for c in CASES])
def test_misused_constructs_are_findings_at_their_line(tmp_path: Path, name: str, change: Callable[[Any], None], on_line: str, code: str) -> None:
    folder = _copy(tmp_path)
    _edit(folder, change)
    result = validate_folder(folder, kinds=("static",))
    found = [f for f in result.findings if f.code == code and f.severity == Severity.ERROR]
    assert found, f"{name}: no {code} in {[f.render() for f in result.findings]}"
    lines = (folder / "game.yaml").read_text(encoding="utf-8").splitlines()
    assert any(f.line is not None and on_line in lines[f.line - 1] for f in found), f"{name}: {[f.render() for f in found]}"


@pytest.mark.parametrize("source", ["min(1)", "max(count(hand), 'a')", "sets(area, nofield, 'x')", "1 if count(hand) else 'x' < 2"])
def test_the_checker_refuses_bad_new_functions(spec: Spec, source: str) -> None:
    assert spec.rules_data is not None
    with pytest.raises(ExpressionError):
        parse_expression(source, names_of(spec, spec.rules_data))
