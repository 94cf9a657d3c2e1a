"""Scoring items of rules data that look at every seat at once, compiled once per Game.

``all_or_nothing`` is a sum of a card field over a zone, turned round when one
seat took every card worth anything: that seat scores nothing and every other
seat scores its total (Hearts' shooting the moon, without naming it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from cardgen.engine.interpreter.compile import Tables
from cardgen.spec.rules_data import AllOrNothingScore

if TYPE_CHECKING:
    from cardgen.engine.interpreter.game import DataState


def all_or_nothing(item: AllOrNothingScore, tables: Tables, players: int) -> Callable[["DataState", int], int]:
    """The scorer of one ``all_or_nothing`` item: ``f(state, seat)``."""
    spec = item.all_or_nothing
    zone, per_seat = tables.zone_index[spec.zone], tables.names.zones[spec.zone]
    values, sign = tables.field_values[spec.field], spec.sign

    def worth(s: "DataState", seat: int) -> list[int]:
        return [values[d] for d in s.z[zone + (seat if per_seat else 0)] if isinstance(values[d], int) and values[d] != 0]

    def total(s: "DataState", seat: int) -> int:
        held = [worth(s, k) for k in range(players)] if per_seat else [worth(s, 0)]
        takers = [k for k, cards in enumerate(held) if cards]
        if per_seat and len(takers) == 1 and players > 1:  # one seat took every card worth anything
            everything = sum(held[takers[0]])
            return 0 if seat == takers[0] else sign * everything
        return sign * sum(held[seat if per_seat else 0])

    return total
