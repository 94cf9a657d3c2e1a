"""Rules data's set scoring (``scoring: - sets``) checked against the spec: its zones, its fields, its wild cards' fill.

Kept apart from :mod:`cardgen.spec.rules_check` so each scoring kind's checks live together.
"""

from __future__ import annotations

import ast
from typing import Iterator

from cardgen.spec.rules_data import RulesData, SetsScore
from cardgen.spec.rules_expr import NUMBER, Names
from cardgen.spec.source import PathKey

FILL_WORDS = ("set", "piece")
"""What a wild card may fill besides a number of cards: every missing card of a set, or one."""


def fill_words(names: Names, source: int | str) -> bool:
    """Whether ``source`` is ``options.NAME`` for an option whose every choice is a fill word."""
    tree = ast.parse(str(source), mode="eval").body
    if isinstance(tree, ast.Attribute) and isinstance(tree.value, ast.Name) and tree.value.id == "options":
        choices = names.options.get(tree.attr, ())
        return bool(choices) and all(choice in FILL_WORDS for choice in choices)
    return False


def sets_fields(score: SetsScore) -> list[str]:
    """The card fields a ``sets`` scoring item reads: the set, its size, its points and every tiebreak field."""
    spec = score.sets
    return [spec.set, spec.size, spec.points] + [tie.by for tie in spec.ties if not isinstance(tie, str)]


def sets_problems(rules: RulesData, names: Names, here: PathKey, score: SetsScore) -> Iterator[tuple[PathKey, str, str]]:
    """A ``sets`` item counted in a shared zone, or naming a field the decks in play lack or that is not a whole number."""
    spec = score.sets
    for key, zone in (("zone", spec.zone), ("wild", spec.wild.zone if spec.wild is not None else None)):
        if zone is not None and zone in rules.zones and not rules.zones[zone].per_seat:
            path = here + ((key,) if key == "zone" else ("wild", "zone"))
            yield path, f"zone {zone!r} is shared; sets are counted in each seat's own zone (a per-seat zone)", "CG175"
    fields: list[tuple[PathKey, str]] = [(("set",), spec.set), (("size",), spec.size), (("points",), spec.points)]
    fields += [(("ties", k, "by"), tie.by) for k, tie in enumerate(spec.ties) if not isinstance(tie, str)]
    for where, name in fields:
        if name not in names.fields:
            yield here + where, f"no card field {name!r} in the decks in play", "CG175"
        elif where != ("set",) and names.field_kinds.get(name) != NUMBER:
            yield here + where, f"card field {name!r} is not a whole number, so it cannot be {'compared' if where[0] == 'ties' else 'counted'}", "CG175"
