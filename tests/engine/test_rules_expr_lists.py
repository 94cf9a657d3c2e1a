"""`X in card.FIELD` over a card's list field (int_list, palette_list) and `matching(ZONE, FIELD, VALUE)`: checked,
compiled, and said in the rulebook."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from cardgen.engine.interpreter.compile import Tables, compile_expression, field_tables
from cardgen.spec.rules_expr import NUMBER, TEXT, ExpressionError, Names, parse_expression

DESIGNS: list[dict[str, Any]] = [
    {"id": "site-low", "type": "site", "effect": None, "totals": [2, 3], "colours": ["red"], "level": 1},
    {"id": "site-mid", "type": "site", "effect": None, "totals": [4, 5, 6], "colours": ["red", "blue"], "level": 2},
    {"id": "blank", "type": "site", "effect": None, "totals": None, "colours": None, "level": 1},
]
LOW, MID, BLANK = range(3)
NAMES = Names(
    zones={"row": False, "area": True},
    counters={},
    variables=frozenset({"rolled", "called"}),
    fields=frozenset({"totals", "colours", "level"}),
    numbers=frozenset(),
    setup=frozenset(),
    field_kinds={"totals": "other", "colours": "other", "level": NUMBER},
    variable_kinds={"rolled": NUMBER, "called": TEXT},
    list_kinds={"totals": NUMBER, "colours": TEXT},
)


def tables() -> Tables:
    return Tables(
        names=NAMES,
        zone_index={"row": 0, "area": 1},
        counter_index={},
        variable_index={"rolled": 0, "called": 1},
        field_values=field_tables(DESIGNS, NAMES.fields),
        constants={},
        players=2,
    )


def state(row: list[int], rolled: int | None = None, called: str | None = None, area0: list[int] | None = None) -> Any:
    return SimpleNamespace(z=[row, area0 or [], []], c=[], v=[rolled, called], turn=1)


def value(source: str, s: Any, card: int | None = None) -> Any:
    return compile_expression(source, tables(), card=card is not None)(s, 0, card if card is not None else 0)


def test_a_value_is_looked_up_in_a_card_list() -> None:
    assert value("rolled in card.totals", state([], rolled=5), card=MID) is True
    assert value("rolled in card.totals", state([], rolled=5), card=LOW) is False
    assert value("rolled not in card.totals", state([], rolled=5), card=LOW) is True
    assert value("called in card.colours", state([], called="blue"), card=MID) is True
    assert value("rolled in top(row).totals", state([LOW], rolled=3)) is True


def test_a_missing_value_or_list_is_never_found() -> None:
    assert value("rolled in card.totals", state([], rolled=None), card=MID) is False
    assert value("rolled in card.totals", state([], rolled=4), card=BLANK) is False
    assert value("rolled in top(row).totals", state([], rolled=3)) is False  # an empty zone's top has no list


def test_matching_counts_the_cards_with_a_value() -> None:
    assert value("matching(row, level, 1)", state([LOW, MID, BLANK, LOW])) == 3
    assert value("matching(area, level, card.level)", state([], area0=[MID, MID, LOW]), card=MID) == 2
    assert value("matching(row, level, rolled)", state([LOW], rolled=None)) == 0


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("called in card.totals", "holds a number"),
        ("rolled in card.colours", "holds a text"),
        ("rolled in card.level", "`in` takes a list of constants"),
        ("rolled in rolled", "`in` takes a list of constants"),
        ("card.totals < 3", "has no order"),
        ("matching(row, level)", "takes 3 argument"),
        ("matching(row, shape, 1)", "no card field 'shape'"),
    ],
)
def test_the_checker_refuses(source: str, message: str) -> None:
    with pytest.raises(ExpressionError, match=message.replace("(", r"\(").replace(")", r"\)").replace("`", ".")):
        parse_expression(source, NAMES, card=True)
