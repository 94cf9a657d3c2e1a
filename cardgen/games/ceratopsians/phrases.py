"""The rulebook's phrases for the ``ceratopsians`` mechanic: gettext messages of the rulebook catalog.

``cardgen i18n extract`` reads every ``N_`` call of a game package's ``phrases.py``, so these
sentences are translated in ``locales/`` like the rest of the generated rules text. A phrase may
name the spec's numbers and setup entries (``%(numbers.NAME)s``, ``%(setup.display.DECK)s``);
the rulebook fills them from the spec.
"""

from __future__ import annotations


def N_(message: str) -> str:
    """Mark a message for extraction (translated when the rulebook is written)."""
    return message


PHRASES: dict[str, str] = {
    "turn_sides": N_("Turn each card over at random, so either of its sides may show."),
    "lay_out": N_(
        "Deal the top %(setup.display.skulls)s cards of the deck, without flipping them, into a column between the two "
        "players: this is the boneyard. The first card goes into the slot nearest the first player."
    ),
    "draft": N_("Take the card from one slot of the boneyard into your collection, keeping the side it shows."),
    "slide": N_(
        "The cards in the other two slots slide towards your rival: the card that was further from you goes to the far end "
        "of the column, the other one to the middle slot. A card that ends up where it was is turned over."
    ),
    "refill": N_("Then the top card of the deck goes into the slot nearest you, without flipping it."),
    "displays": N_(
        "Arrange your collection into displays, at most one card of each part in a display, each part in its place. Each "
        "pair of matching filled markers where two cards of a display meet scores %(numbers.pair_points)s, and a display "
        "with every part scores %(numbers.complete_display_bonus)s more. Your score is that of your best arrangement."
    ),
}
"""The phrase of each use the mechanic declares, by its name."""
