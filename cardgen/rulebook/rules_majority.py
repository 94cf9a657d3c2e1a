"""The rulebook sentences of a ``majority`` scoring item, in the locale of a :class:`Phrasebook`.

Kept apart from :mod:`cardgen.rulebook.rules_summary` so each scoring kind's phrasing lives next to its words.
"""

from __future__ import annotations

from cardgen.rulebook.rules_phrases import (
    MAJORITY_CARDS,
    MAJORITY_FIRST,
    MAJORITY_FIRST_COUNT,
    MAJORITY_FIRST_EACH,
    MAJORITY_FIRST_EACH_COUNT,
    MAJORITY_NONE_PLACES,
    MAJORITY_RANKED,
    MAJORITY_RANKED_EACH,
    MAJORITY_SUM,
    MAJORITY_TIES_FULL,
    MAJORITY_TIES_NONE,
    MAJORITY_TIES_SHARE,
)
from cardgen.rulebook.rules_words import ExpressionText, Phrasebook
from cardgen.spec.rules_data import MajorityScore

_TIES = {"share": MAJORITY_TIES_SHARE, "full": MAJORITY_TIES_FULL, "none": MAJORITY_TIES_NONE}


def majority_sentences(b: Phrasebook, item: MajorityScore) -> str:
    """What is compared (in each contest), what the places score, who does not place, and how ties score."""
    spec = item.majority
    text = ExpressionText(b, "their")
    zone = b.zone_phrase(spec.zone, "their")
    what = b.say(MAJORITY_SUM, field=b.field(spec.count).name, zone=zone) if spec.count is not None else b.say(MAJORITY_CARDS, zone=zone)
    places = b.listing([text.amount(points) for points in spec.points])
    one = len(spec.points) == 1
    node = text.tree(spec.points[0], False) if one else None
    known = text.known(node) if node is not None else None  # one place worth a number the same at every count: its plural
    by = {} if spec.by is None else {"by": b.field(spec.by).name}
    if known is not None:
        ranked = b.say_count(MAJORITY_FIRST_COUNT if spec.by is None else MAJORITY_FIRST_EACH_COUNT, known, what=what, **by)
    elif spec.by is None:
        ranked = b.say(MAJORITY_FIRST if one else MAJORITY_RANKED, what=what, places=places)
    else:
        ranked = b.say(MAJORITY_FIRST_EACH if one else MAJORITY_RANKED_EACH, what=what, places=places, **by)
    return " ".join([ranked, b.say(MAJORITY_NONE_PLACES), b.say(_TIES[spec.ties])])
