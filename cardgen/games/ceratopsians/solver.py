"""Exact solver for Ceratopsians: the score margin of a deal under perfect play.

Once a seed fixes the deck order and every card's side, Ceratopsians is a
two-player game of perfect information (the solver sees the whole deck, which
players do not: it measures the deal, not a strategy players could follow).
The solver runs a fail-soft negamax with alpha-beta on the first player's
margin (P1 score minus P2 score), driven by MTD(f) null-window probes, with a
transposition table keyed on the boneyard and the two collections' canonical
keys (faces that score alike are merged), and moves ordered by the table's best
move and then by the immediate gain. The last draft is resolved directly: the
player to move takes the card that raises their own score most.

The boneyard update is the rules module's own :data:`~.rules.UPDATE` table, so
the solver and the engine cannot disagree about slides and flips.
"""

from __future__ import annotations

from statistics import mean
from typing import Iterable

from cardgen.engine.core import Action, Game, Solution
from cardgen.games.ceratopsians.rules import UPDATE, CeratopsiansGame

INFINITY = 10_000


class _DealSearch:
    """The search over one deal: positions as (drafts made, boneyard faces, both collection keys)."""

    def __init__(self, game: CeratopsiansGame, seed: int) -> None:
        self.game = game
        order, sides = game.deal(seed)
        self.refill = [2 * card + sides[card] for card in order]
        """The face each deck position shows when it enters the boneyard (cards on the deck never flip)."""
        self.total = 2 * game.drafts_per_player
        self.step = game.scorer.key_step
        self.value = game.scorer.value
        self.table: dict[tuple[int, int, int, int, int, int], tuple[int, int, int]] = {}
        self.nodes = 0
        scorer = game.scorer
        first: dict[int, int] = {}
        for face, cls in enumerate(scorer.class_of):
            first.setdefault(cls, face)
        self.representative = [first[c] for c in range(len(first))]
        self.part_of = scorer.part_of
        self.weight = scorer.weight
        self.neighbours = scorer.neighbours
        self.parts = scorer.parts
        self.bonus = scorer.bonus

    def gain_bound(self, face: int, faces: tuple[int, ...]) -> int:
        """An upper bound on what adding ``face`` to the collection ``faces`` can add to its best score.

        Taking ``face`` out of a best arrangement of the larger collection loses at most its
        best partner's weight in every neighbouring part, plus one bonus when the new card can
        raise the number of complete displays (that is, when its part is the only rarest one).
        """
        part_of, row = self.part_of, self.weight[face]
        part = part_of[face]
        best = [0] * self.parts
        counts = [0] * self.parts
        for g in faces:
            q = part_of[g]
            counts[q] += 1
            if row[g] > best[q]:
                best[q] = row[g]
        bound = 0
        for q in self.neighbours[part]:
            bound += best[q]
        old_min = min(counts)
        counts[part] += 1
        if min(counts) > old_min:
            bound += self.bonus
        return bound

    def root(self) -> tuple[int, int, int]:
        """The boneyard faces after setup: the top three cards, in slots 0, 1, 2."""
        return self.refill[0], self.refill[1], self.refill[2]

    def child(self, drafts: int, bone: tuple[int, int, int], slot: int) -> tuple[int, tuple[int, int, int]]:
        """The drafted face and the boneyard after drafting ``slot``, sliding, flipping and refilling."""
        player = drafts & 1
        from_far, to_far, flip_far, from_mid, flip_mid, near = UPDATE[player][slot]
        far_face = bone[from_far] ^ 1 if flip_far else bone[from_far]
        mid_face = bone[from_mid] ^ 1 if flip_mid else bone[from_mid]
        new = [-1, -1, -1]
        new[to_far] = far_face
        new[1] = mid_face
        deck_index = drafts + 3
        if deck_index < len(self.refill):
            new[near] = self.refill[deck_index]
        return bone[slot], (new[0], new[1], new[2])

    def faces_value(self, key: int, faces: tuple[int, ...]) -> int:
        """The best assembly of ``faces``, whose canonical key is ``key`` (memoised in the scorer)."""
        cached = self.game.scorer.memo.get(key)
        if cached is not None:
            return cached
        return self.value(faces, key)

    def negamax(
        self, drafts: int, bone: tuple[int, int, int], mine: int, theirs: int, my_faces: tuple[int, ...], their_faces: tuple[int, ...], alpha: int, beta: int
    ) -> int:
        """The margin for the player to move (their score minus the other's), fail-soft.

        ``mine``/``theirs`` are the collections' canonical keys, ``my_faces``/``their_faces`` the faces.
        """
        self.nodes += 1
        step = self.step
        if drafts == self.total:
            return self.faces_value(mine, my_faces) - self.faces_value(theirs, their_faces)
        if drafts == self.total - 1:
            return self._last_draft(bone, mine, theirs, my_faces, their_faces, alpha, beta)
        key = (drafts, bone[0], bone[1], bone[2], mine, theirs)
        entry = self.table.get(key)
        hint = -1
        if entry is not None:
            low, high, hint = entry
            if low >= beta:
                return low
            if high <= alpha:
                return high
            if low > alpha:
                alpha = low
            if high < beta:
                beta = high
        start_alpha = alpha
        moves = []
        for slot in range(3):
            face = bone[slot]
            if face >= 0:
                moves.append((slot != hint, -self.gain_bound(face, my_faces), slot))
        moves.sort()
        best = -INFINITY
        best_slot = -1
        for _, _, slot in moves:
            face, new_bone = self.child(drafts, bone, slot)
            score = -self.negamax(drafts + 1, new_bone, theirs, mine + step[face], their_faces, my_faces + (face,), -beta, -alpha)
            if score > best:
                best, best_slot = score, slot
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        if best <= start_alpha:
            self.table[key] = (-INFINITY, best, best_slot)
        elif best >= beta:
            self.table[key] = (best, INFINITY, best_slot)
        else:
            self.table[key] = (best, best, best_slot)
        return best

    def _last_draft(
        self, bone: tuple[int, int, int], mine: int, theirs: int, my_faces: tuple[int, ...], their_faces: tuple[int, ...], alpha: int, beta: int
    ) -> int:
        """The final draft: the mover takes the card that raises their own score most.

        Each candidate is first bounded by :meth:`gain_bound`; exact values are computed only
        for candidates whose bound can still matter.
        """
        step = self.step
        other = self.faces_value(theirs, their_faces)
        base = self.faces_value(mine, my_faces)
        bounded = sorted(((base + self.gain_bound(f, my_faces), f) for f in bone if f >= 0), reverse=True)
        if bounded[0][0] - other <= alpha:
            return bounded[0][0] - other
        best = -INFINITY
        for ceiling, face in bounded:
            if ceiling - other <= best:
                break
            score = self.faces_value(mine + step[face], my_faces + (face,)) - other
            if score > best:
                best = score
                if best >= beta:
                    break
        return best

    def exact(self, drafts: int, bone: tuple[int, int, int], guess: int = 0) -> int:
        """The exact margin for the player to move from a position with empty collections, by MTD(f)."""
        low, high = -INFINITY, INFINITY
        value = guess
        while low < high:
            probe = value + 1 if value == low else value
            value = self.negamax(drafts, bone, 0, 0, (), (), probe - 1, probe)
            if value < probe:
                high = value
            else:
                low = value
        return value

    def line(self, value: int) -> list[Action]:
        """One optimal sequence of drafts from the start, each keeping the margin at ``value``."""
        drafts, bone = 0, self.root()
        keys = [0, 0]
        faces: list[tuple[int, ...]] = [(), ()]
        actions: list[Action] = []
        target = value  # for the player to move
        while drafts < self.total:
            player = drafts & 1
            mine, theirs = keys[player], keys[1 - player]
            chosen = -1
            for slot in range(3):
                if bone[slot] < 0:
                    continue
                face, new_bone = self.child(drafts, bone, slot)
                grown = mine + self.step[face]
                # The child is optimal when its value, seen by the rival, is at most -target.
                grown_faces = faces[player] + (face,)
                if self.negamax(drafts + 1, new_bone, theirs, grown, faces[1 - player], grown_faces, -target, -target + 1) <= -target:
                    chosen = slot
                    keys[player] = grown
                    faces[player] = grown_faces
                    bone = new_bone
                    break
            if chosen < 0:
                raise RuntimeError("no move keeps the solved value; the search is inconsistent")
            actions.append(chosen)
            drafts += 1
            target = -target
        return actions


def solve(game: Game, seed: int) -> Solution:
    """Solve the deal of ``seed``: the first player's margin under perfect play and one optimal line."""
    if not isinstance(game, CeratopsiansGame):
        raise TypeError("the ceratopsians solver needs a CeratopsiansGame")
    search = _DealSearch(game, seed)
    value = search.exact(0, search.root())
    actions = search.line(value)
    return Solution(
        value=float(value),
        actions=tuple(actions),
        proved=True,
        nodes=search.nodes,
        detail="first player's score margin (P1 minus P2) under perfect play, deck order and sides known",
    )


def optimal_first_move(game: CeratopsiansGame, seed: int) -> Action:
    """The slot an optimal first player drafts first in the deal of ``seed``."""
    return solve(game, seed).actions[0]


def first_player_edge(game: CeratopsiansGame, seeds: Iterable[int]) -> tuple[float, list[int]]:
    """The first player's mean solved margin over the deals of ``seeds``, and each deal's margin."""
    margins = [int(solve(game, seed).value) for seed in seeds]
    return (mean(margins) if margins else 0.0), margins
