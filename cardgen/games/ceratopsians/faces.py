"""The fixed facts of Ceratopsians' cards read from the spec: faces, parts, display cells, weights and the display scorer.

Shared by the named mechanic (:mod:`.mechanic`), the solvers and the figures: a face is
``2 * card + side``, a card is its index in the deck's card order (every card is one copy).
"""

from __future__ import annotations

from typing import Sequence

from cardgen.games.ceratopsians.assembly import DisplayScorer, Joint
from cardgen.spec.models import Deck, Spec

DECK_ID = "skulls"
EDGES = ("top", "right", "bottom", "left")
Face = int
"""A card with a side: ``2 * card + side``."""


def skull_deck(spec: Spec) -> Deck:
    """The spec's deck of skull cards."""
    for deck in spec.decks:
        if deck.id == DECK_ID:
            return deck
    raise ValueError(f"the ceratopsians rules need a deck {DECK_ID!r}")


def _strings(value: object) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"expected a list of colour ids, got {value!r}")
    return [str(v) for v in value]


class Skulls:
    """Every face of the deck with its part, display cell and markers; the pair weights and the scorer."""

    def __init__(self, spec: Spec, pair_points: int, bonus: int) -> None:
        deck = skull_deck(spec)
        self.pair_points = pair_points
        self.bonus = bonus
        self.card_ids: list[str] = []
        self.face_names: list[str] = []
        part_ids: list[str] = []
        face_part_id: list[str] = []
        face_cell: list[tuple[int, int]] = []
        face_filled: list[dict[str, set[str]]] = []
        for card in deck.cards:
            if card.faces is None or len(card.faces) != 2:
                raise ValueError(f"card {card.id!r} needs two faces")
            for copy in range(card.copies):
                self.card_ids.append(card.id if card.copies == 1 else f"{card.id}#{copy + 1}")
                for face in card.faces:
                    data = face.data
                    part = data["part"]
                    cell = data["cell"]
                    if not isinstance(part, str) or not isinstance(cell, list) or len(cell) != 2:
                        raise ValueError(f"card {card.id!r}: each face needs a part and a [column, row] cell")
                    if part not in part_ids:
                        part_ids.append(part)
                    face_part_id.append(part)
                    face_cell.append((int(cell[0]), int(cell[1])))  # type: ignore[arg-type]
                    face_filled.append({edge: set(_strings(data.get(edge))) for edge in EDGES})
                    name = face.name or card.name
                    self.face_names.append(name.get("en", card.id))
        self.deck_size = len(self.card_ids)
        self.part_ids = part_ids
        self.face_part = [part_ids.index(p) for p in face_part_id]
        cells: dict[int, tuple[int, int]] = {}
        for part, where in zip(self.face_part, face_cell):
            if cells.setdefault(part, where) != where:
                raise ValueError(f"faces of part {part_ids[part]!r} give different cells")
        if len(set(cells.values())) != len(cells):
            raise ValueError("two parts share a display cell")
        self.part_cell = [cells[p] for p in range(len(part_ids))]
        joints: list[Joint] = []
        for a, (ax, ay) in enumerate(self.part_cell):
            for b, (bx, by) in enumerate(self.part_cell):
                if (bx, by) in ((ax + 1, ay), (ax, ay + 1)):
                    joints.append(Joint(a, b))
        self.joints = joints
        n_faces = len(self.face_part)
        weight = [[0] * n_faces for _ in range(n_faces)]
        for f in range(n_faces):
            for g in range(n_faces):
                weight[f][g] = pair_points * len(self._facing(f, g, face_filled))
        self.weight = weight
        self.scorer = DisplayScorer(self.face_part, weight, joints, len(part_ids), bonus)
        self.usage_names = [f"card:{cid.split('#')[0]}" for cid in self.card_ids]

    def max_score(self, drafts_per_player: int) -> int:
        """A bound on one player's score after ``drafts_per_player`` drafts."""
        max_weight = max(max(row) for row in self.weight)
        n = drafts_per_player
        return max_weight * (3 * n // 2) + self.bonus * (n // len(self.part_ids))

    def _facing(self, f: Face, g: Face, filled: Sequence[dict[str, set[str]]]) -> set[str]:
        """Colours filled on both sides of the edge where faces ``f`` and ``g`` meet (empty if not adjacent)."""
        (fx, fy), (gx, gy) = self.part_cell[self.face_part[f]], self.part_cell[self.face_part[g]]
        delta = (gx - fx, gy - fy)
        sides = {(1, 0): ("right", "left"), (-1, 0): ("left", "right"), (0, 1): ("bottom", "top"), (0, -1): ("top", "bottom")}
        if delta not in sides:
            return set()
        mine, theirs = sides[delta]
        return filled[f][mine] & filled[g][theirs]

    def face_label(self, face: Face) -> str:
        """A readable face: its English name and card id."""
        return f"{self.face_names[face]} ({self.card_ids[face // 2]})"
