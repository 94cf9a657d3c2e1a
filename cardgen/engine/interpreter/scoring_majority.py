"""The ``majority`` scoring item of rules data, compiled once per Game: points for having the most.

Every seat's amount in a contest is the number of its cards in the zone (or a whole-number field summed over
them), counting only the cards with the contest's value of ``by`` when there is one. Seats with a positive amount
are ranked, most first; a group of seats tied at places p..p+k-1 scores by ``ties``: ``share`` splits the points
of those places, rounded down; ``full`` gives each the points of place p; ``none`` gives them nothing. The next
group starts at place p+k either way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from cardgen.engine.interpreter.compile import Tables, constant_value
from cardgen.spec.rules_data import MajorityScore

if TYPE_CHECKING:
    from cardgen.engine.interpreter.game import DataState


def place_points(amounts: list[int], points: list[int], ties: str) -> list[int]:
    """What each seat scores in one contest, from the seats' amounts (a seat with none never places)."""
    scored = [0] * len(amounts)
    ranked = sorted((amount for amount in set(amounts) if amount > 0), reverse=True)
    place = 0
    for amount in ranked:
        group = [seat for seat, held in enumerate(amounts) if held == amount]
        spans = points[place : place + len(group)]
        if ties == "share":
            each = sum(spans) // len(group)
        elif ties == "full" or len(group) == 1:
            each = spans[0] if spans else 0
        else:
            each = 0
        for seat in group:
            scored[seat] = each
        place += len(group)
        if place >= len(points):
            break
    return scored


def contests(item: MajorityScore, tables: Tables) -> list[object]:
    """The values of ``by`` among the cards in play, in card order (one contest each), or ``[None]``: one contest."""
    by = item.majority.by
    if by is None:
        return [None]
    seen: list[object] = []
    for value in tables.field_values[by][:-1]:
        if value is not None and value not in seen:
            seen.append(value)
    return seen


def majority_scorer(item: MajorityScore, tables: Tables, players: int) -> Callable[["DataState", int], int]:
    """The scorer of one ``majority`` item: ``f(state, seat)``."""
    spec = item.majority
    zone = tables.zone_index[spec.zone]
    points = [constant_value(value, tables) for value in spec.points]
    values = contests(item, tables)
    by = tables.field_values[spec.by] if spec.by is not None else None
    weight = tables.field_values[spec.count] if spec.count is not None else None

    def amount(s: "DataState", seat: int, value: object) -> int:
        total = 0
        for design in s.z[zone + seat]:
            if by is not None and by[design] != value:
                continue
            if weight is None:
                total += 1
            elif isinstance(weight[design], int):
                total += weight[design]
        return total

    def total(s: "DataState", seat: int) -> int:
        return sum(place_points([amount(s, k, value) for k in range(players)], points, spec.ties)[seat] for value in values)

    return total


def majority_bound(item: MajorityScore, tables: Tables) -> int:
    """The most a seat can score with this item (or lose, for negative points): the best place of every contest."""
    points = [abs(constant_value(value, tables)) for value in item.majority.points]
    return len(contests(item, tables)) * max(points)
