"""Rules data's majority scoring (``scoring: - majority``) checked against the spec: its zone and its fields.

Kept apart from :mod:`cardgen.spec.rules_check` so each scoring kind's checks live together.
"""

from __future__ import annotations

from typing import Iterator

from cardgen.spec.rules_data import MajorityScore, RulesData
from cardgen.spec.rules_expr import CARD_ATTRIBUTES, NUMBER, Names
from cardgen.spec.source import PathKey


def majority_fields(score: MajorityScore) -> list[str]:
    """The card fields a ``majority`` item reads: the field naming its contests and the field summed."""
    return [name for name in (score.majority.by, score.majority.count) if name is not None and name not in CARD_ATTRIBUTES]


def majority_problems(rules: RulesData, names: Names, here: PathKey, score: MajorityScore) -> Iterator[tuple[PathKey, str, str]]:
    """A majority compared over a shared zone, or naming a field the decks in play lack, or summing one that is not a number."""
    spec = score.majority
    if spec.zone in rules.zones and not rules.zones[spec.zone].per_seat:
        yield here + ("zone",), f"zone {spec.zone!r} is shared; a majority compares each seat's own zone (a per-seat zone)", "CG175"
    if spec.by is not None and spec.by not in names.fields and spec.by not in CARD_ATTRIBUTES:
        yield here + ("by",), f"no card field {spec.by!r} in the decks in play", "CG175"
    elif spec.by is not None and spec.by in names.list_kinds:
        yield here + ("by",), f"card field {spec.by!r} holds a list; a majority's contests are the values of a field holding one value", "CG175"
    if spec.count is not None:
        if spec.count not in names.fields:
            yield here + ("count",), f"no card field {spec.count!r} in the decks in play", "CG175"
        elif names.field_kinds.get(spec.count) != NUMBER:
            yield here + ("count",), f"card field {spec.count!r} is not a whole number, so it cannot be summed", "CG175"
