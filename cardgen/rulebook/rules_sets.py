"""The rulebook sentences of a ``sets`` scoring item (set collection), in the locale of a :class:`Phrasebook`.

Kept apart from :mod:`cardgen.rulebook.rules_summary` so each scoring kind's phrasing lives next to its words.
"""

from __future__ import annotations

from cardgen.rulebook.rules_phrases import (
    SETS_NO_PARTIAL,
    SETS_PER,
    SETS_PER_FORMULA,
    SETS_SCORE,
    SETS_TIES,
    TIE_BY,
    TIE_CARDS,
    TIE_SETS,
    WILD_CARDS,
    WILD_FORMULA,
    WILD_SET,
)
from cardgen.rulebook.rules_words import ExpressionText, Phrasebook
from cardgen.spec.rules_data import SetsScore


def sets_sentences(b: Phrasebook, item: SetsScore) -> str:
    """The sentences of one ``sets`` scoring item: what a complete and an incomplete set score, the wild cards, the tiebreakers."""
    spec = item.sets
    text = ExpressionText(b)
    out = [b.say(SETS_SCORE, zone=b.zone_phrase(spec.zone, "their"), set=b.field(spec.set).name, size=b.field(spec.size).name, points=b.field(spec.points).name)]
    if spec.per is None:
        out.append(b.say(SETS_NO_PARTIAL))
    else:
        node = text.tree(spec.per, False)
        per = text.known(node) if node is not None else None
        out.append(b.say_count(SETS_PER, per) if per is not None else b.say(SETS_PER_FORMULA, amount=text.amount(spec.per)))
    if spec.wild is not None:
        wild = spec.wild
        zone, condition = b.zone_phrase(wild.zone, "their"), text.condition(wild.where, card=True)
        fills = _fill(b, wild.fills)
        if fills == "set":
            out.append(b.say(WILD_SET, zone=zone, condition=condition))
        elif isinstance(fills, int):
            out.append(b.say_count(WILD_CARDS, fills, zone=zone, condition=condition))
        else:
            out.append(b.say(WILD_FORMULA, zone=zone, condition=condition, amount=text.amount(wild.fills)))
    if spec.ties:
        ties = [b.say(TIE_CARDS) if tie == "cards" else b.say(TIE_SETS) if tie == "sets" else b.say(TIE_BY, field=b.field(tie.by).name) for tie in spec.ties]
        out.append(b.say(SETS_TIES, ties=b.listing(ties)))
    return " ".join(out)


def _fill(b: Phrasebook, fills: int | str) -> int | str | None:
    """What one wild card fills, as the spec's options choose: ``set``, a number of cards, or None (a formula)."""
    if fills in ("set", "piece"):
        return 1 if fills == "piece" else "set"
    if isinstance(fills, int):
        return fills
    option = fills.removeprefix("options.")
    if option != fills and option in b.rules.options:
        choice = str(b.spec.options.get(option, b.rules.options[option].default))
        return 1 if choice == "piece" else "set" if choice == "set" else None
    text = ExpressionText(b)
    node = text.tree(fills, False)
    return text.known(node) if node is not None else None
