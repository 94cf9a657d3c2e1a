"""Display assembly for Ceratopsians: the best way to split a collection into displays.

A collection is a list of *faces* (a card with the side it was drafted on). A
display holds at most one face per part; two faces in one display score the
weight of their shared edge when their parts are adjacent, and a display with
every part scores a bonus. A player's score is the maximum over all ways of
splitting the collection into displays, so it has to be found exactly.

The search assigns faces part by part to an existing display that lacks that
part, or to a new one. It is a branch and bound: an upper bound (each adjacent
pair of parts scored by its own best matching, plus one bonus per card of the
rarest part) stops the search as soon as an arrangement reaches it, and an
optimistic estimate of what the unplaced faces can still add prunes branches.
Values are memoised on a canonical key that treats faces with the same part and
the same weights as equal, so repeated collections cost one dictionary look-up.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter
from typing import Sequence

Face = int
Arrangement = list[list[Face]]
"""Displays, each a list of faces (one per part at most)."""

MEMO_LIMIT = 2_000_000
"""Entries kept in the memo before it is cleared, so long runs do not grow without bound."""
RECENT_LIMIT = 256
"""Collections whose best arrangement is remembered (a finished game asks for each one several times)."""


class _Found(Exception):
    """Raised inside the search when an arrangement reaches the upper bound."""


@dataclass(frozen=True)
class Joint:
    """Two adjacent positions of a display: ``first`` and ``second`` are part indices."""

    first: int
    second: int


class DisplayScorer:
    """Scores collections of faces by their best assembly into displays.

    ``part_of[f]`` is the part index of face ``f`` (0..parts-1), ``weight[f][g]``
    the points two faces earn when they sit side by side in one display (0 when
    their parts are not adjacent), and ``bonus`` the points of a complete display.
    """

    def __init__(self, part_of: Sequence[int], weight: Sequence[Sequence[int]], joints: Sequence[Joint], parts: int, bonus: int) -> None:
        self.part_of = list(part_of)
        self.weight = [list(row) for row in weight]
        self.joints = list(joints)
        self.parts = parts
        self.bonus = bonus
        if bonus < 0 or any(w < 0 for row in self.weight for w in row):
            raise ValueError("display weights and the complete-display bonus must not be negative (the bounds assume it)")
        self.neighbours: list[list[int]] = [[] for _ in range(parts)]
        for joint in self.joints:
            self.neighbours[joint.first].append(joint.second)
            self.neighbours[joint.second].append(joint.first)
        # Faces with the same part and the same weights are interchangeable.
        signature: dict[tuple[int, tuple[int, ...]], int] = {}
        self.class_of: list[int] = []
        for face, part in enumerate(self.part_of):
            sig = (part, tuple(self.weight[face]))
            self.class_of.append(signature.setdefault(sig, len(signature)))
        sizes = [self.class_of.count(c) for c in range(len(signature))]
        self.class_bits = max(sizes).bit_length() + 1
        self.key_step: list[int] = [1 << (self.class_bits * c) for c in self.class_of]
        """Adding ``key_step[f]`` to a collection's key adds face ``f`` (see :meth:`key`)."""
        self.memo: dict[int, int] = {}
        self.matchings: dict[tuple[int, int], int] = {}
        """Best matchings between two groups of faces, by the groups' canonical keys."""
        self.recent: dict[tuple[Face, ...], tuple[int, Arrangement]] = {}
        """:meth:`best` answers by the exact face sequence (the arrangement found depends on the order)."""

    # --- keys and cached values -------------------------------------------

    def key(self, faces: Sequence[Face]) -> int:
        """The canonical key of a collection: counts of each face class packed into one int."""
        total = 0
        for face in faces:
            total += self.key_step[face]
        return total

    def value(self, faces: Sequence[Face], key: int | None = None) -> int:
        """The best score of ``faces`` (memoised on the canonical key, which may be passed in)."""
        if key is None:
            key = self.key(faces)
        cached = self.memo.get(key)
        if cached is None:
            cached = self.search(faces)[0]
            if len(self.memo) >= MEMO_LIMIT:
                self.memo.clear()
            self.memo[key] = cached
        return cached

    def best(self, faces: Sequence[Face]) -> tuple[int, Arrangement]:
        """The exact best score of ``faces`` and the arrangement :meth:`search` finds, from one search.

        The answer is remembered for the exact sequence of faces, so the end of
        a game (scores, usage and the conservation recount) searches each
        collection once; the score also goes into the canonical memo.
        """
        exact = tuple(faces)
        found = self.recent.get(exact)
        if found is None:
            found = self.search(exact, want_arrangement=True)
            if len(self.recent) >= RECENT_LIMIT:
                self.recent.clear()
            self.recent[exact] = found
            key = self.key(exact)
            if key not in self.memo:
                if len(self.memo) >= MEMO_LIMIT:
                    self.memo.clear()
                self.memo[key] = found[0]
        return found[0], [display[:] for display in found[1]]

    # --- scoring one display ------------------------------------------------

    def display_score(self, display: Sequence[Face]) -> int:
        """The points of one display: the weights of its adjacent faces, plus the bonus when complete."""
        by_part = {self.part_of[f]: f for f in display}
        if len(by_part) != len(display):
            raise ValueError("a display holds at most one card per position")
        points = sum(self.weight[by_part[j.first]][by_part[j.second]] for j in self.joints if j.first in by_part and j.second in by_part)
        return points + (self.bonus if len(by_part) == self.parts else 0)

    def arrangement_score(self, displays: Sequence[Sequence[Face]]) -> int:
        """The total points of an arrangement."""
        return sum(self.display_score(d) for d in displays)

    # --- bounds -------------------------------------------------------------

    def _matching(self, left: Sequence[Face], right: Sequence[Face]) -> int:
        """The best total weight of a matching between two small lists of faces."""
        if not left or not right:
            return 0
        w = self.weight
        if len(left) == 1:
            a = w[left[0]]
            return max(a[g] for g in right)
        if len(right) == 1:
            b = right[0]
            return max(w[f][b] for f in left)
        best = 0
        first, rest = left[0], left[1:]
        best = self._matching(rest, right)
        row = w[first]
        for i, g in enumerate(right):
            if row[g]:
                candidate = row[g] + self._matching(rest, [*right[:i], *right[i + 1 :]])
                if candidate > best:
                    best = candidate
        return best

    def upper_bound(self, faces: Sequence[Face]) -> int:
        """A bound no arrangement can beat: each joint's best matching plus a bonus per card of the rarest part.

        Proof. A display holds at most one card per part, so across one joint (parts p and q)
        the displays pair cards of p with cards of q at most once each: a matching between the
        two groups, worth at most the best matching. Every point of an arrangement lies on one
        joint of one display, or is a bonus; a complete display holds a card of every part, and
        no card is in two displays, so there are at most as many complete displays as cards of
        the rarest part.
        """
        by_part: list[list[Face]] = [[] for _ in range(self.parts)]
        for f in faces:
            by_part[self.part_of[f]].append(f)
        total = sum(self._matching(by_part[j.first], by_part[j.second]) for j in self.joints)
        return total + self.bonus * min(len(group) for group in by_part)

    # --- exact search ---------------------------------------------------------

    def search(self, faces: Sequence[Face], want_arrangement: bool = False) -> tuple[int, Arrangement]:
        """The exact best score of ``faces`` and (when asked) one arrangement reaching it.

        Faces are placed part by part (the most numerous part first). Every cut keeps an optimum:

        * the search stops once an arrangement reaches :meth:`upper_bound` (nothing beats it);
        * ``remaining[i]``: placing face ``i`` adds only its edges to cards already placed, which
          are of earlier parts; each such edge is at most its best weight to any card of that
          part. Edges to later parts are counted when the later card is placed. So the faces
          from ``i`` on add at most ``remaining[i]`` in edges;
        * bonuses still to come: at most ``bonus_cap`` in all, and at most one per display that
          can still be completed. Once every card of a part is placed, a display lacking that
          part never gets it, and a display opened later lacks it too, so only the open displays
          holding all earlier parts count. While the first part is placed (no earlier part)
          every face opens a display of its own, a single forced path met before any
          arrangement is complete, so nothing is cut there;
        * one card per part at most: a single display holding all of them is best, since weights
          and bonus are never negative.
        """
        part_of, weight, neighbours, parts, bonus = self.part_of, self.weight, self.neighbours, self.parts, self.bonus
        by_part: list[list[Face]] = [[] for _ in range(parts)]
        for f in faces:
            by_part[part_of[f]].append(f)
        present = [p for p in range(parts) if by_part[p]]
        if all(len(by_part[p]) == 1 for p in present):
            # One card per part at most: a single display holding all of them is best (weights are >= 0).
            single = [by_part[p][0] for p in present]
            return self.display_score(single), [single] if want_arrangement else []
        order = sorted(present, key=lambda p: -len(by_part[p]))
        rank = [parts] * parts
        for i, p in enumerate(order):
            rank[p] = i
        sequence = [f for p in order for f in by_part[p]]
        n = len(sequence)
        complete_possible = len(present) == parts
        bonus_cap = bonus * min(len(by_part[p]) for p in range(parts)) if complete_possible else 0
        ceiling = bonus_cap
        for joint in self.joints:
            ceiling += self._matching_memo(by_part[joint.first], by_part[joint.second])
        # What each face can still add when placed: its best partner in every earlier-placed neighbouring part.
        remaining = [0] * (n + 1)
        for i in range(n - 1, -1, -1):
            f = sequence[i]
            p = part_of[f]
            row = weight[f]
            gain = 0
            for q in neighbours[p]:
                if rank[q] < rank[p]:
                    gain += max([row[g] for g in by_part[q]])
            remaining[i] = remaining[i + 1] + gain
        earlier_of_part = {p: order[: rank[p]] for p in order}
        earlier = [earlier_of_part[part_of[f]] for f in sequence]
        """The parts placed before each face's part: a display missing one of them can never be complete."""
        part_seq = [part_of[f] for f in sequence]
        rows = [weight[f] for f in sequence]
        links = [neighbours[p] for p in part_seq]
        cap_count = bonus_cap // bonus if bonus else 0
        displays: list[list[int]] = []
        best_value = -1
        best_arrangement: Arrangement = []
        first = itemgetter(0)

        def place(i: int, score: int) -> None:
            nonlocal best_value, best_arrangement
            if i == n:
                if complete_possible:
                    for d in displays:
                        if -1 not in d:
                            score += bonus
                if score > best_value:
                    best_value = score
                    if want_arrangement:
                        best_arrangement = [[f for f in d if f >= 0] for d in displays]
                    if score >= ceiling:
                        raise _Found
                return
            rest = score + remaining[i]
            if rest + bonus_cap <= best_value:
                return
            if bonus_cap:
                completable = 0
                for d in displays:
                    for q in earlier[i]:
                        if d[q] < 0:
                            break
                    else:
                        completable += 1
                if rest + bonus * (completable if completable < cap_count else cap_count) <= best_value:
                    return
            f = sequence[i]
            p = part_seq[i]
            row = rows[i]
            near = links[i]
            options: list[tuple[int, list[int]]] = []
            for d in displays:
                if d[p] < 0:
                    gain = 0
                    for q in near:
                        g = d[q]
                        if g >= 0:
                            gain += row[g]
                    options.append((gain, d))
            if len(options) > 1:
                options.sort(key=first, reverse=True)  # stable: equal gains keep display order
            i += 1
            for gain, d in options:
                d[p] = f
                place(i, score + gain)
                d[p] = -1
            fresh = [-1] * parts
            fresh[p] = f
            displays.append(fresh)
            place(i, score)
            displays.pop()

        try:
            place(0, 0)
        except _Found:
            pass
        return best_value, best_arrangement

    def _matching_memo(self, left: Sequence[Face], right: Sequence[Face]) -> int:
        """:meth:`_matching`, memoised on the two groups' face classes (the matching only sees weights)."""
        if not left or not right:
            return 0
        step = self.key_step
        lk = 0
        for f in left:
            lk += step[f]
        rk = 0
        for g in right:
            rk += step[g]
        key = (lk, rk)
        found = self.matchings.get(key)
        if found is None:
            found = self._matching(left, right)
            if len(self.matchings) >= MEMO_LIMIT:
                self.matchings.clear()
            self.matchings[key] = found
        return found
