"""Set scoring of rules data (``scoring: - sets: ...``), compiled once per Game.

The cards of a seat's zone are grouped by the field naming their set. A set
holding at least its size scores its points once; an incomplete set scores a
point for every ``per`` cards. Wild cards in another zone of the seat each
complete a started set (or fill ``fills`` of its missing cards); they are placed
where the seat's score from this item is highest, then where the tiebreakers
(``ties``) are best, by trying every placement that the wild cards can pay for.

Tables are per design, so a score is one pass over the zone; the placement search
runs only for a seat holding wild cards, on the sets it could complete.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any, Sequence

from cardgen.engine.interpreter.compile import ExprFunction, Tables, compile_expression, constant_value
from cardgen.spec.rules_data import SetsScore

if TYPE_CHECKING:
    from cardgen.engine.interpreter.game import DataState


def wild_fill(source: int | str, tables: Tables) -> int:
    """Missing cards one wild card fills: 0 for a whole set (``set``), 1 for ``piece``, else the number ``source`` gives."""
    value: Any = source
    if source not in ("set", "piece"):
        value = compile_expression(source, tables)(None, 0, 0)
    if value == "set":
        return 0
    if value == "piece":
        return 1
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"a wild card fills {value!r}; it must fill a `set`, a `piece` or a whole number of cards, at least 1")
    return value


class SetsScorer:
    """The scorer of one ``sets`` item: ``scorer(state, seat)`` is the points, :meth:`ties` the tiebreak values."""

    def __init__(self, item: SetsScore, tables: Tables, copies: Sequence[int]) -> None:
        spec = item.sets
        self.zone, self.per_seat = tables.zone_index[spec.zone], tables.names.zones[spec.zone]
        set_of: list[Any] = tables.field_values[spec.set][:-1]
        sizes: list[Any] = tables.field_values[spec.size][:-1]
        points: list[Any] = tables.field_values[spec.points][:-1]
        names: list[Any] = []
        for value in set_of:
            if value is not None and value not in names:
                names.append(value)
        self.set_names = names
        self.set_index: list[int] = [names.index(v) if v is not None else -1 for v in set_of]
        """Design -> the index of its set (-1: not a card of any set)."""
        n = len(names)
        self.size = [0] * n
        self.points = [0] * n
        self.held = [0] * n
        """Cards of each set in play (copies counted), for the score bound."""
        for design, k in enumerate(self.set_index):
            if k >= 0:
                self.size[k] = max(self.size[k], sizes[design] if isinstance(sizes[design], int) else 0)
                self.points[k] = max(self.points[k], points[design] if isinstance(points[design], int) else 0)
                self.held[k] += copies[design]
        self.per = constant_value(spec.per, tables) if spec.per is not None else 0
        if spec.per is not None and self.per < 1:
            raise ValueError(f"a sets scoring item's `per` is {self.per}; an incomplete set scores one point for every `per` cards, at least 1")
        self.wild_zone, self.wild_per_seat, self.fills = -1, False, 0
        self.wild_where: ExprFunction | None = None
        if spec.wild is not None:
            self.wild_zone, self.wild_per_seat = tables.zone_index[spec.wild.zone], tables.names.zones[spec.wild.zone]
            self.wild_where = compile_expression(spec.wild.where, tables, card=True)
            self.fills = wild_fill(spec.wild.fills, tables)
        self.tie_kinds: list[str] = []
        self.tie_rank: list[list[int]] = []
        """For each ``by`` tiebreaker: set index -> its slot in the vector (the highest field value first), -1 if none."""
        for tie in spec.ties:
            if isinstance(tie, str):
                self.tie_kinds.append(tie)
                continue
            self.tie_kinds.append("by")
            values: list[Any] = tables.field_values[tie.by][:-1]
            per_set: list[int | None] = [None] * n
            for design, k in enumerate(self.set_index):
                if k >= 0 and isinstance(values[design], int):
                    per_set[k] = values[design]
            order = sorted({v for v in per_set if v is not None}, reverse=True)
            self.tie_rank.append([order.index(v) if v is not None else -1 for v in per_set])
        self.vector_width = [len(set(rank) - {-1}) for rank in self.tie_rank]

    @property
    def bound(self) -> int:
        """The most this item can give a seat: every set's points, or a point per ``per`` cards of it."""
        return sum(max(p, h // self.per if self.per else 0) for p, h in zip(self.points, self.held))

    def counts(self, s: "DataState", seat: int) -> list[int]:
        """Cards of each set in ``seat``'s zone."""
        counts = [0] * len(self.size)
        index = self.set_index
        for design in s.z[self.zone + (seat if self.per_seat else 0)]:
            k = index[design]
            if k >= 0:
                counts[k] += 1
        return counts

    def wilds(self, s: "DataState", seat: int) -> int:
        """Wild cards ``seat`` holds."""
        if self.wild_where is None:
            return 0
        where = self.wild_where
        return sum(1 for design in s.z[self.wild_zone + (seat if self.wild_per_seat else 0)] if where(s, seat, design))

    def __call__(self, s: "DataState", seat: int) -> int:
        counts = self.counts(s, seat)
        wilds = self.wilds(s, seat)
        if not wilds:
            return self._plain(counts, ())
        return self.best(counts, wilds)[0]

    def ties(self, s: "DataState", seat: int) -> tuple[int, ...]:
        """The tiebreak values of ``seat`` (with its wild cards placed as for its score)."""
        return self.best(self.counts(s, seat), self.wilds(s, seat))[1:]

    def _plain(self, counts: Sequence[int], filled: Sequence[int]) -> int:
        score, per = 0, self.per
        for k, c in enumerate(counts):
            if c:
                if c >= self.size[k] or k in filled:
                    score += self.points[k]
                elif per:
                    score += c // per
        return score

    def _key(self, counts: Sequence[int], filled: Sequence[int]) -> tuple[int, ...]:
        complete = [k for k, c in enumerate(counts) if c and (c >= self.size[k] or k in filled)]
        key = [self._plain(counts, filled)]
        by = 0
        for kind in self.tie_kinds:
            if kind == "cards":
                key.append(sum(counts[k] for k in complete))
            elif kind == "sets":
                key.append(len(complete))
            else:
                vector = [0] * self.vector_width[by]
                rank = self.tie_rank[by]
                for k in complete:
                    if rank[k] >= 0:
                        vector[rank[k]] += 1
                key.extend(vector)
                by += 1
        return tuple(key)

    def _need(self, missing: int) -> int:
        return 1 if self.fills == 0 else -(-missing // self.fills)

    def best(self, counts: Sequence[int], wilds: int) -> tuple[int, ...]:
        """The best (score, tiebreakers) over every placement of ``wilds`` wild cards on started, incomplete sets."""
        best = self._key(counts, ())
        if wilds <= 0:
            return best
        candidates = [k for k, c in enumerate(counts) if 0 < c < self.size[k] and self._need(self.size[k] - c) <= wilds]
        for r in range(1, min(wilds, len(candidates)) + 1):
            for combo in itertools.combinations(candidates, r):
                if sum(self._need(self.size[k] - counts[k]) for k in combo) <= wilds:
                    key = self._key(counts, combo)
                    if key > best:
                        best = key
        return best
