"""The rulebook's phrases for the ``ceramus_mural`` mechanic: gettext messages of the rulebook catalog.

``cardgen i18n extract`` reads every ``N_`` call of a game package's ``phrases.py``, so these
sentences are translated in ``locales/`` like the rest of the generated rules text. A phrase may
name the spec's numbers and setup entries (``%(numbers.NAME)s``); the rulebook fills them from the spec.
"""

from __future__ import annotations

from cardgen.spec.mechanic_declaration import CountedPhrase, Phrase


def N_(message: str) -> str:
    """Mark a message for extraction (translated when the rulebook is written)."""
    return message


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a message with plural forms for extraction (translated with ngettext)."""
    return singular, plural


PHRASES: dict[str, Phrase] = {
    "lay_mural": N_(
        "Lay the Mural cards from the top of their pile into the Mural's grid for your player count, row by row, "
        "each turned a random number of quarter turns; the cards left over go back to the box."
    ),
    "build": N_(
        "Build the revealed Shape: lay it on the Mural with one of its squares on an uncovered Original of a style you "
        "choose, and put a tile of that style from your reserve on each other square; a square may not show that style "
        "or hold one of your tiles, and a rival's tile you cover goes back to its owner's reserve."
    ),
    "build_mirrored": N_("Build the revealed Shape as above, mirrored left to right."),
    "add": N_("Put a tile from your reserve on a cell that does not show its style and holds none of your tiles."),
    "remove": N_("Lift a tile, anyone's, off the Mural; it goes back to its owner's reserve."),
    "move": N_(
        "Move a tile, anyone's, one space up, down, left or right onto an uncovered cell that does not show its style; "
        "a tile moved by this card does not move again."
    ),
    "stop": N_("Stop moving tiles."),
    "claim": N_(
        "Take every Ceramas card of the row whose pattern the tiles you just laid complete: cells with the same letter show "
        "one style, cells with different letters different styles, never turned or flipped."
    ),
    "add_tile": CountedPhrase(
        NP_("You will add up to %(numbers.add_tile_count)s tile to the Mural.", "You will add up to %(numbers.add_tile_count)s tiles to the Mural."),
        "numbers.add_tile_count",
    ),
    "remove_tile": CountedPhrase(
        NP_("You will lift up to %(numbers.remove_tile_count)s tile off the Mural.", "You will lift up to %(numbers.remove_tile_count)s tiles off the Mural."),
        "numbers.remove_tile_count",
    ),
    "move_one": CountedPhrase(
        NP_("You will move up to %(numbers.move_one_max_tiles)s tile one space.", "You will move up to %(numbers.move_one_max_tiles)s tiles one space each."),
        "numbers.move_one_max_tiles",
    ),
    "move_two": CountedPhrase(
        NP_("You will move up to %(numbers.move_two_max_tiles)s tile one space.", "You will move up to %(numbers.move_two_max_tiles)s tiles one space each."),
        "numbers.move_two_max_tiles",
    ),
    "tiles": N_(
        "Score %(numbers.points_per_tile_on_mural)s for each of your tiles on the Mural and "
        "%(numbers.points_per_tile_in_reserve)s for each tile left in your reserve."
    ),
}
"""The phrase of each use the mechanic declares, by its name."""

CONDITIONS: dict[str, str] = {
    "waiting": N_("a bonus of yours is waiting for its tiles"),
    "usable": N_("the card's bonus would change something now"),
    "can_add": N_("some player could still add a tile to the Mural, with a Shape left in a hand or a Ceramas card they hold"),
}
"""The phrase of each question about the position the mechanic answers."""

NEGATIONS: dict[str, str] = {
    "waiting": N_("no bonus of yours is waiting for its tiles"),
    "can_add": N_("no player could add a tile to the Mural any more, with a Shape left in a hand or a Ceramas card they hold"),
}
"""The phrase of a condition that does not hold, where "it is not so that ..." would read badly."""
