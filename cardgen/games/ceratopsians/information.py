"""Ceratopsians under the players' own information: an exact expectimax over the unseen deck.

At the table both players see the same things: the boneyard, both collections,
the cards already dealt, and the top card of the deck with the side it shows.
The order of the cards under it, and which side each shows, are unknown to
both. Since neither player knows anything the other does not, the game under
that information is a two-player game with chance moves, and its value is the
expectiminimax value: the players choose drafts, and each time a refill uncovers
a new top card, chance picks it uniformly among the unseen cards, with either
side up at even odds (the deal shuffles uniformly and turns each card at
random, and nothing seen says anything about the rest).

The chance branching (twice the unseen cards at each refill) makes the whole
game far too large to solve exactly, so :func:`information_value` is meant for
the last drafts, where few cards are unseen. :func:`endgame_note` puts that
value beside the perfect-information value of the same position.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence

from cardgen.engine.core import State
from cardgen.engine.interpreter import DataState
from cardgen.games.ceratopsians.position import DraftView, draft_action

ENDGAME_COST = 12_000
"""The most lines (draft choices times uncovered cards) :func:`endgame_note` lets its expectimax walk.

In a full deal that is the last five drafts, with three cards unseen at the first of them
(hundredths of a second); six drafts, with four unseen, would cost seconds.
"""


def _lines(unseen: int, drafts: int, refills: int) -> int:
    """How many lines an expectimax walks over ``drafts`` drafts: three choices a draft, and each
    refill that uncovers a card branches over the unseen cards and their sides."""
    lines = 1
    for d in range(drafts):
        lines *= 3
        if d < refills and unseen > 0:
            lines *= 2 * unseen
            unseen -= 1
    return lines


Bone = tuple[int, int, int]


class InformationSearch:
    """Expectiminimax from one position, seeing only what the players see."""

    def __init__(self, state: DraftView) -> None:
        from cardgen.games.ceratopsians.solver import UPDATE

        self.update = UPDATE
        game = state.game
        self.total = 2 * game.drafts_per_player
        self.scorer = game.scorer
        self.step = game.scorer.key_step
        self.table: dict[tuple[object, ...], Fraction] = {}
        self.nodes = 0
        sides = state.sides
        self.drafts = state.drafts
        self.bone: Bone = tuple(2 * c + sides[c] if c >= 0 else -1 for c in state.bone)  # type: ignore[assignment]
        rest = state.order[state.top :]
        self.top = 2 * rest[0] + sides[rest[0]] if rest else -1
        self.unseen = tuple(sorted(rest[1:]))
        self.faces = (tuple(state.collections[0]), tuple(state.collections[1]))
        self.keys = (state.keys[0], state.keys[1])

    def value(self) -> Fraction:
        """The expected margin of the starting position for the player to move, both playing optimally."""
        me = self.drafts & 1
        return self._node(self.drafts, self.bone, self.top, self.unseen, self.keys[me], self.keys[1 - me], self.faces[me], self.faces[1 - me])

    def _score(self, key: int, faces: tuple[int, ...]) -> int:
        cached = self.scorer.memo.get(key)
        return cached if cached is not None else self.scorer.value(faces, key)

    def _node(
        self, drafts: int, bone: Bone, top: int, unseen: tuple[int, ...], mine: int, theirs: int, my_faces: tuple[int, ...], their_faces: tuple[int, ...]
    ) -> Fraction:
        self.nodes += 1
        if drafts == self.total:
            return Fraction(self._score(mine, my_faces) - self._score(theirs, their_faces))
        if drafts == self.total - 1:
            # Nothing is revealed after the last draft: the mover simply takes the best card for them.
            other = self._score(theirs, their_faces)
            return Fraction(max(self._score(mine + self.step[f], my_faces + (f,)) for f in bone if f >= 0) - other)
        key = (drafts, bone, top, unseen, mine, theirs)
        known = self.table.get(key)
        if known is not None:
            return known
        player = drafts & 1
        best: Fraction | None = None
        for slot in range(3):
            face = bone[slot]
            if face < 0:
                continue
            from_far, to_far, flip_far, from_mid, flip_mid, near = self.update[player][slot]
            new = [-1, -1, -1]
            new[to_far] = bone[from_far] ^ 1 if flip_far else bone[from_far]
            new[1] = bone[from_mid] ^ 1 if flip_mid else bone[from_mid]
            new[near] = top
            after: Bone = (new[0], new[1], new[2])
            grown, grown_faces = mine + self.step[face], my_faces + (face,)
            if top < 0 or not unseen:
                value = -self._node(drafts + 1, after, -1, unseen, theirs, grown, their_faces, grown_faces)
            else:
                total = Fraction(0)
                for i, card in enumerate(unseen):
                    rest = unseen[:i] + unseen[i + 1 :]
                    for side in (0, 1):
                        total += self._node(drafts + 1, after, 2 * card + side, rest, theirs, grown, their_faces, grown_faces)
                value = -total / (2 * len(unseen))
            if best is None or value > best:
                best = value
        assert best is not None
        self.table[key] = best
        return best


def information_value(state: State | DraftView) -> Fraction:
    """P1's expected margin from ``state`` when both players see only what the rules show them.

    Exact (a fraction); the cost grows with the unseen cards and drafts left, so it suits the last drafts.
    """
    from cardgen.games.ceratopsians.solver import view

    state = view(state)
    value = InformationSearch(state).value()
    return value if state.drafts % 2 == 0 else -value


def endgame_note(start: State, slots: Sequence[int], cost: int = ENDGAME_COST) -> tuple[str, ...]:
    """A line comparing both information models at the first position of the line small enough to solve.

    That is the first position from which the expectimax walks at most ``cost`` lines (see
    :func:`_lines`); the last draft always qualifies. ``slots`` are the line's drafts; ``start``
    is a data game's state (or the tests' reference state, whose actions are slots).
    """
    from cardgen.games.ceratopsians.solver import solve_state, view

    state = start.clone()
    seen = view(state)
    total = 2 * seen.game.drafts_per_player
    for slot in slots:
        # the deck's top card is seen; the cards under it are not
        unseen = max(0, len(seen.order) - seen.top - 1)
        refills = len(seen.order) - seen.top
        if _lines(unseen, total - seen.drafts, refills) <= cost or seen.drafts >= total - 1:
            break
        state.apply_action(draft_action(state.g, slot) if isinstance(state, DataState) else slot)
        seen = view(state)
    known = solve_state(seen)[0]
    expected = information_value(seen)
    return (
        f"after draft {seen.drafts} of this line, with {total - seen.drafts} drafts left: P1's margin {known} with the deck known; "
        f"{float(expected):.3f} ({expected}) expected under the players' information "
        f"(top card seen, the rest in random order with random sides; exact expectimax)",
    )
