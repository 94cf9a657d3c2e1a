"""Checks that a spec stays within the work budgets of :mod:`cardgen.limits`.

The models bound each number on its own (copies of one card, dice per roll);
these checks bound what the numbers multiply into: the cards and pieces a
build prints, and the grids a card face draws from its data. They are static
checks, so a spec over a budget stops before anything is rendered or played.
"""

from __future__ import annotations

from typing import Any, Iterator

from cardgen.findings import Finding, Severity
from cardgen.limits import MAX_FRAME_CELLS, MAX_PRINTED_PIECES
from cardgen.spec.load import LoadedSpec
from cardgen.spec.models import Deck, FieldDef, Spec
from cardgen.spec.source import PathKey
from cardgen.validate.registry import check, register_codes

register_codes(
    {
        "CG012": f"The spec prints more cards and pieces than the budget allows ({MAX_PRINTED_PIECES:,}, copies counted).",
        "CG013": f"A card's polyomino, pattern or palette grid is larger than a face can draw ({MAX_FRAME_CELLS} cells a side).",
    }
)

_GRID_KINDS = frozenset({"polyomino", "pattern", "palette_grid"})


def _pieces_of(spec: Spec) -> Iterator[tuple[PathKey, int]]:
    """(place, printed count) of every card (copies) and every component (entries and players multiplied)."""
    for d_index, deck in enumerate(spec.decks):
        for c_index, card in enumerate(deck.cards):
            yield ("decks", d_index, "cards", c_index, "copies"), card.copies
    palettes = {p.id: len(p.entries) for p in spec.palettes}
    for index, component in enumerate(spec.components):
        per_entry = palettes.get(component.palette or "", 1)
        owners = spec.players.max if component.per_player else 1
        yield ("components", index, "count"), component.count * per_entry * owners


@check("printed-pieces", "static")
def printed_pieces(loaded: LoadedSpec) -> Iterator[Finding]:
    """All decks (every copy) and components together print at most MAX_PRINTED_PIECES pieces."""
    assert loaded.spec is not None
    total = 0
    for path, count in _pieces_of(loaded.spec):
        total += count
        if total > MAX_PRINTED_PIECES:
            full = sum(n for _, n in _pieces_of(loaded.spec))
            yield loaded.place_finding(
                "CG012",
                Severity.ERROR,
                path,
                f"the spec prints {full:,} cards and pieces, over the limit of {MAX_PRINTED_PIECES:,} (MAX_PRINTED_PIECES); "
                f"the total passes it here",
                "lower the copies or counts, or split the game into several specs",
            )
            return


def _grid_size(kind: str, value: Any) -> int:
    """The side, in cells, of the square a polyomino, pattern or palette grid value is drawn in."""
    if not isinstance(value, list):
        return 0
    if kind == "polyomino":
        numbers = [n for cell in value if isinstance(cell, list) for n in cell if isinstance(n, int) and not isinstance(n, bool)]
        return max((abs(n) + 1 for n in numbers), default=0)
    lengths = [len(row) for row in value if isinstance(row, (str, list))]
    return max([len(value), *lengths])


def _grid_fields(deck: Deck) -> dict[str, FieldDef]:
    return {name: definition for name, definition in deck.fields.items() if definition.type in _GRID_KINDS}


@check("drawn-grids", "static")
def drawn_grids(loaded: LoadedSpec) -> Iterator[Finding]:
    """Polyominoes, patterns and palette grids fit in MAX_FRAME_CELLS cells a side (a face draws every cell)."""
    assert loaded.spec is not None
    for d_index, deck in enumerate(loaded.spec.decks):
        fields = _grid_fields(deck)
        if not fields:
            continue
        for c_index, card in enumerate(deck.cards):
            sets: list[tuple[PathKey, dict[str, Any]]] = [(("data",), card.data)]
            sets += [(("faces", i, "data"), face.data) for i, face in enumerate(card.faces or [])]
            for base, data in sets:
                for name, definition in fields.items():
                    side = _grid_size(definition.type, data.get(name))
                    if side > MAX_FRAME_CELLS:
                        yield loaded.place_finding(
                            "CG013",
                            Severity.ERROR,
                            ("decks", d_index, "cards", c_index, *base, name),
                            f"{definition.type} {name!r} spans {side:,} cells, over the {MAX_FRAME_CELLS} cells a side a card face can draw (MAX_FRAME_CELLS)",
                            "keep coordinates, rows and columns below the limit",
                        )
