"""The rules language's zone functions `distinct(ZONE, FIELD)` and `has(ZONE, FIELD, VALUE)`: checked, then compiled."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from cardgen.engine.interpreter.compile import Tables, compile_expression, field_tables
from cardgen.spec.rules_expr import ExpressionError, Names, parse_expression

DESIGNS: list[dict[str, Any]] = [
    {"id": "red-1", "type": "plain", "effect": None, "colour": "red", "points": 1},
    {"id": "red-2", "type": "plain", "effect": None, "colour": "red", "points": 2},
    {"id": "blue-1", "type": "plain", "effect": None, "colour": "blue", "points": 1},
    {"id": "joker", "type": "joker", "effect": None, "colour": None, "points": 0},
]
RED_1, RED_2, BLUE_1, JOKER = range(4)
NAMES = Names(
    zones={"line": False, "area": True},
    counters={},
    variables=frozenset(),
    fields=frozenset({"colour", "points"}),
    numbers=frozenset(),
    setup=frozenset({"pieces.chips"}),
)


def tables() -> Tables:
    return Tables(
        names=NAMES,
        zone_index={"line": 0, "area": 1},
        counter_index={},
        variable_index={},
        field_values=field_tables(DESIGNS, NAMES.fields),
        constants={"setup.pieces.chips": 11},
        players=2,
    )


def state(line: list[int], area0: list[int] | None = None, area1: list[int] | None = None) -> Any:
    """A stand-in position: zone 0 is the line, zones 1 and 2 are seat 0's and seat 1's areas."""
    return SimpleNamespace(z=[line, area0 or [], area1 or []], c=[], v=[], turn=1)


def value(source: str, s: Any, seat: int = 0, card: int | None = None) -> Any:
    function = compile_expression(source, tables(), card=card is not None)
    return function(s, seat, card if card is not None else 0)


def test_distinct_counts_the_different_values() -> None:
    assert value("distinct(line, colour)", state([RED_1, BLUE_1])) == 2
    assert value("distinct(line, colour)", state([RED_1, RED_2, BLUE_1])) == 2
    assert value("distinct(line, colour)", state([])) == 0
    assert value("distinct(line, points)", state([RED_1, BLUE_1, RED_2])) == 2


def test_distinct_ignores_cards_without_a_value() -> None:
    assert value("distinct(line, colour)", state([JOKER])) == 0
    assert value("distinct(line, colour)", state([JOKER, RED_1])) == 1


def test_a_bust_is_a_repeated_value() -> None:
    bust = "distinct(line, colour) < count(line)"
    assert value(bust, state([RED_1, BLUE_1])) is False
    assert value(bust, state([RED_1, BLUE_1, RED_2])) is True
    assert value(bust, state([])) is False


def test_has_finds_a_value() -> None:
    assert value("has(line, colour, 'blue')", state([RED_1, BLUE_1])) is True
    assert value("has(line, colour, 'blue')", state([RED_1, RED_2])) is False
    assert value("has(line, colour, 'blue')", state([])) is False
    assert value("has(line, points, 1 + 1)", state([RED_2])) is True
    assert value("has(line, type, 'joker')", state([JOKER])) is True


def test_has_never_finds_nothing() -> None:
    """A card with no value in the field does not match an empty top card's value."""
    assert value("has(line, colour, top(area).colour)", state([JOKER], [])) is False


def test_per_seat_zones_are_the_seats_own() -> None:
    s = state([], [RED_1], [BLUE_1, RED_2])
    assert value("distinct(area, colour)", s, seat=0) == 1
    assert value("distinct(area, colour)", s, seat=1) == 2
    assert value("has(area, colour, 'blue')", s, seat=0) is False
    assert value("has(area, colour, 'blue')", s, seat=1) is True


def test_has_with_the_card_in_question() -> None:
    s = state([], [RED_1])
    assert value("has(area, colour, card.colour)", s, card=RED_2) is True
    assert value("has(area, colour, card.colour)", s, card=BLUE_1) is False


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("distinct(line)", "takes 2 argument"),
        ("has(line, colour)", "takes 3 argument"),
        ("distinct(line, shape)", "no card field 'shape'"),
        ("distinct(pile, colour)", "'pile' is not a zone"),
        ("has(line, 'colour', 'red')", "names a card field"),
        ("has(line, colour, card.colour)", "`card` is only known"),
        ("has(line, colour, nothing)", "unknown name 'nothing'"),
        ("unique(line, colour)", "not a function of the rules (count, total, top, holds, distinct, has, matching, sets, counter, min, max, piles, mechanic)"),
        ("setup.pieces.coins", "no setup gives 'pieces.coins'"),
        ("setup.tokens.chips", "setup.tokens is not a setup entry"),
    ],
)
def test_the_checker_refuses(source: str, message: str) -> None:
    with pytest.raises(ExpressionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_expression(source, NAMES)


def test_what_the_functions_read() -> None:
    _, reads = parse_expression("has(area, colour, 'red') and distinct(line, points) > 1", NAMES)
    assert reads.zones == {"area", "line"} and reads.fields == {"colour", "points"}


def test_setup_pieces_are_read_for_the_player_count() -> None:
    """`setup.pieces.COMPONENT` is the setup table's pieces for the player count (chips each player starts with)."""
    _, reads = parse_expression("setup.pieces.chips - 1", NAMES)
    assert reads.setup == {"pieces.chips"}
    assert value("setup.pieces.chips - 1", state([])) == 10
