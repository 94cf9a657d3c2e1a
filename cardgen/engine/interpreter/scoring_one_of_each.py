"""The ``sets`` scoring item of rules data, compiled once per Game: points for complete sets.

A complete set is one card of every design whose field has the value named (one of
each construction type), so a seat's sets are the copies of its scarcest such design
in the zone. Each set scores ``points``; ``multiplied`` of them (an expression over the
seat, such as a counter of sets doubled) score ``times`` their points; a seat with at
least ``bonus_at`` sets adds ``bonus`` once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from cardgen.engine.interpreter.compile import Tables, compile_expression, constant_value
from cardgen.spec.rules_data import OneOfEachScore

if TYPE_CHECKING:
    from cardgen.engine.interpreter.game import DataState


def set_designs(tables: Tables, field: str, value: str) -> tuple[int, ...]:
    """The designs one card of each of which makes a set."""
    return tuple(d for d, v in enumerate(tables.field_values[field][:-1]) if v == value)


def complete_sets(zone: list[int], designs: tuple[int, ...]) -> int:
    """Complete sets of ``designs`` in ``zone``: the copies of the scarcest (0 when there are none)."""
    return min([zone.count(d) for d in designs]) if designs else 0


def one_of_each_scorer(item: OneOfEachScore, tables: Tables, copies: list[int]) -> Callable[["DataState", int], int]:
    """The scorer of one ``sets`` item: ``f(state, seat)``. Sets multiplied count at most the sets the deck can make."""
    spec = item.one_of_each
    zone, per_seat = tables.zone_index[spec.zone], tables.names.zones[spec.zone]
    designs = set_designs(tables, spec.field, spec.value)
    points, bonus, bonus_at, times = (constant_value(value, tables) for value in (spec.points, spec.bonus, spec.bonus_at, spec.times))
    multiplied = compile_expression(spec.multiplied, tables)
    most = min([copies[d] for d in designs]) if designs else 0

    def total(s: "DataState", seat: int) -> int:
        sets = complete_sets(s.z[zone + (seat if per_seat else 0)], designs)
        score = sets * points
        if sets >= bonus_at:
            score += bonus
        extra = min(multiplied(s, seat, 0) or 0, most)
        if extra > 0:
            score += extra * points * (times - 1)
        return score

    return total


def one_of_each_bound(item: OneOfEachScore, tables: Tables, copies: list[int]) -> int:
    """The most a seat can score with this item: every set of the deck, all multiplied, and the bonus."""
    spec = item.one_of_each
    designs = set_designs(tables, spec.field, spec.value)
    most = min([copies[d] for d in designs]) if designs else 0
    points, bonus, times = (abs(constant_value(value, tables)) for value in (spec.points, spec.bonus, spec.times))
    return most * points * max(times, 1) + bonus
