"""Exact solver for Ceratopsians: the score margin of a deal under perfect information.

What the solver knows. Once a seed fixes the deck order and every card's side,
Ceratopsians is a two-player game of perfect information, and that is the game
:func:`solve` solves: its value is the first player's margin when both players
see the whole deck. Players at the table do not: they see the boneyard and the
top card of the deck only. The value measures the deal, not a strategy players
could follow. The value under the players' own information (an expectation
over the unseen order) is computed exactly for the last drafts by
:mod:`.information`, and :func:`solve` reports it beside the perfect-information
value for the position its line reaches.

The search is a fail-soft negamax with alpha-beta on the margin of the player
to move, driven by MTD(f) null-window probes, with a transposition table keyed
on the drafts made, the boneyard's faces and both collections' canonical keys
(faces that score alike are merged), and moves ordered by the table's best move
and then by :func:`gain_bound`. The last draft is resolved directly: the player
to move takes the card that raises their own score most, and :func:`gain_bound`
spares the exact count of candidates that cannot matter.

The boneyard update is the solver's own table (:data:`UPDATE`), written from the
rulebook; the rules data plays the mechanic's code, and a test checks the solver's
lines replay on it to the value found.

The search reads a position as plain facts (:class:`~.position.DraftView`): a data
game's state is read through the mechanic (:func:`~.position.position`), and the
tests' reference engine has the same shape.
"""

from __future__ import annotations

from statistics import mean
from typing import Iterable, Sequence

from cardgen.engine.core import Action, Game, Solution, State
from cardgen.engine.interpreter import DataState
from cardgen.games.ceratopsians.assembly import DisplayScorer
from cardgen.games.ceratopsians.position import DraftView, boneyard_of, draft_action, position

INFINITY = 10_000
INFORMATION = "perfect information: the solver sees the deck order and every card's side, which the players do not"

Bone = tuple[int, int, int]


def update_plan(player: int, drafted: int, slots: int = 3) -> tuple[int, int, bool, int, bool, int]:
    """How the boneyard changes after ``player`` drafts from slot ``drafted``.

    Returns ``(from_far, to_far, flip_far, from_mid, flip_mid, near)``: the card in
    ``from_far`` (the one further from the player) goes to ``to_far`` (the slot
    furthest from the player), the other card goes from ``from_mid`` to the middle
    slot, each is flipped when it did not change slot, and ``near`` is the slot the
    refill goes into.
    """
    if slots != 3:
        raise ValueError("the boneyard update is defined for three slots")
    rest = [s for s in range(slots) if s != drafted]
    middle = 1
    if player == 0:
        near, far = 0, 2
        from_far, from_mid = rest[1], rest[0]
    else:
        near, far = 2, 0
        from_far, from_mid = rest[0], rest[1]
    return from_far, far, from_far == far, from_mid, from_mid == middle, near


UPDATE = [[update_plan(p, s) for s in range(3)] for p in range(2)]
"""``UPDATE[player][slot]``: the plan of :func:`update_plan`, precomputed."""


def gain_bound(scorer: DisplayScorer, face: int, faces: Sequence[int]) -> int:
    """An upper bound on ``value(faces + [face]) - value(faces)``: what one more card can add.

    Proof. Let A be a best arrangement of ``faces + [face]`` and D the display
    holding ``face``. Taking ``face`` out of D leaves an arrangement of ``faces``
    (displays only lose a card, so each still holds one card per part), whose
    score is A's minus what ``face`` brought to D: the weight of its edge to the
    card of each neighbouring part q in D (at most ``best[q]``, the largest
    weight between ``face`` and any card of part q in ``faces``; 0 when there is
    none), plus the bonus if D was complete. D can be complete only when every
    part occurs in ``faces + [face]``. Hence ``value(faces) >= value(faces +
    [face]) - sum(best[q]) - bonus * [every part present]``. Weights and the
    bonus are never negative (the scorer refuses others), so no other term can
    be lost.

    The bound must not assume the bonus needs a new rarest part: a collection
    can gain a complete display by one card while its rarest count stays put,
    when the best arrangement regroups the cards around the new one.
    """
    part_of, row = scorer.part_of, scorer.weight[face]
    best = [0] * scorer.parts
    present = [False] * scorer.parts
    for g in faces:
        q = part_of[g]
        present[q] = True
        if row[g] > best[q]:
            best[q] = row[g]
    bound = 0
    for q in scorer.neighbours[part_of[face]]:
        bound += best[q]
    present[part_of[face]] = True
    if all(present):
        bound += scorer.bonus
    return bound


class DealSearch:
    """The search from one position of a deal whose deck order and sides are known.

    Positions are (drafts made, boneyard faces, both collections' canonical keys);
    the faces are kept beside the keys for :func:`gain_bound`.
    """

    def __init__(self, state: DraftView) -> None:
        game = state.game
        self.game = game
        self.start = state.drafts
        sides = state.sides
        self.refill = [2 * card + sides[card] for card in state.order[state.top :]]
        """The face each remaining deck card shows when it enters the boneyard (cards on the deck never flip)."""
        self.bone0: Bone = tuple(2 * c + sides[c] if c >= 0 else -1 for c in state.bone)  # type: ignore[assignment]
        self.faces0 = (tuple(state.collections[0]), tuple(state.collections[1]))
        self.keys0 = (state.keys[0], state.keys[1])
        self.total = 2 * game.drafts_per_player
        self.scorer = game.scorer
        self.step = game.scorer.key_step
        self.value = game.scorer.value
        self.table: dict[tuple[int, int, int, int, int, int], tuple[int, int, int]] = {}
        self.nodes = 0

    def child(self, drafts: int, bone: Bone, slot: int) -> tuple[int, Bone]:
        """The drafted face and the boneyard after drafting ``slot``, sliding, flipping and refilling."""
        player = drafts & 1
        from_far, to_far, flip_far, from_mid, flip_mid, near = UPDATE[player][slot]
        far_face = bone[from_far] ^ 1 if flip_far else bone[from_far]
        mid_face = bone[from_mid] ^ 1 if flip_mid else bone[from_mid]
        new = [-1, -1, -1]
        new[to_far] = far_face
        new[1] = mid_face
        deck_index = drafts - self.start
        if deck_index < len(self.refill):
            new[near] = self.refill[deck_index]
        return bone[slot], (new[0], new[1], new[2])

    def faces_value(self, key: int, faces: tuple[int, ...]) -> int:
        """The best assembly of ``faces``, whose canonical key is ``key`` (memoised in the scorer)."""
        cached = self.scorer.memo.get(key)
        if cached is not None:
            return cached
        return self.value(faces, key)

    def negamax(self, drafts: int, bone: Bone, mine: int, theirs: int, my_faces: tuple[int, ...], their_faces: tuple[int, ...], alpha: int, beta: int) -> int:
        """The margin for the player to move (their score minus the other's), fail-soft.

        ``mine``/``theirs`` are the collections' canonical keys, ``my_faces``/``their_faces`` the faces.
        """
        self.nodes += 1
        if drafts == self.total:
            return self.faces_value(mine, my_faces) - self.faces_value(theirs, their_faces)
        if drafts == self.total - 1:
            return self._last_draft(bone, mine, theirs, my_faces, their_faces, alpha, beta)
        step = self.step
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
                moves.append((slot != hint, -gain_bound(self.scorer, face, my_faces), slot))
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

    def _last_draft(self, bone: Bone, mine: int, theirs: int, my_faces: tuple[int, ...], their_faces: tuple[int, ...], alpha: int, beta: int) -> int:
        """The final draft: the mover takes the card that raises their own score most (fail-soft).

        Each candidate is first bounded by :func:`gain_bound`; exact values are computed only
        for candidates whose bound can still matter. A return at or below ``alpha`` is an
        upper bound on the true value, since every candidate's value is at most its bound.
        """
        step = self.step
        other = self.faces_value(theirs, their_faces)
        base = self.faces_value(mine, my_faces)
        bounded = sorted(((base + gain_bound(self.scorer, f, my_faces), f) for f in bone if f >= 0), reverse=True)
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

    def probe(self, alpha: int, beta: int) -> int:
        """The fail-soft margin of the starting position for the player to move, in the window (alpha, beta)."""
        me = self.start & 1
        return self.negamax(
            self.start, self.bone0, self.keys0[me], self.keys0[1 - me], self.faces0[me], self.faces0[1 - me], alpha, beta
        )

    def exact(self, guess: int = 0) -> int:
        """The exact margin of the starting position for the player to move, by MTD(f)."""
        if self.start >= self.total:
            return self.probe(-INFINITY, INFINITY)
        low, high = -INFINITY, INFINITY
        value = guess
        while low < high:
            probe = value + 1 if value == low else value
            value = self.probe(probe - 1, probe)
            if value < probe:
                high = value
            else:
                low = value
        return value

    def line(self, value: int) -> list[Action]:
        """One optimal sequence of drafts from the starting position, each keeping the margin at ``value``.

        ``value`` is the margin for the player to move at the start.
        """
        drafts, bone = self.start, self.bone0
        keys = list(self.keys0)
        faces = list(self.faces0)
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
                grown_faces = faces[player] + (face,)
                # The child is optimal when its value, seen by the rival, is at most -target.
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


def view(state: State | DraftView) -> DraftView:
    """A data game's state read as facts; anything else is taken to have the facts' shape already."""
    return position(state) if isinstance(state, DataState) else state  # type: ignore[return-value]


def solve_state(state: State | DraftView) -> tuple[int, list[int], int]:
    """Solve a position under perfect information: P1's margin (P1 minus P2), one optimal line (slots), positions searched."""
    state = view(state)
    search = DealSearch(state)
    value = search.exact()
    actions = search.line(value)
    margin = value if state.drafts % 2 == 0 else -value
    return margin, actions, search.nodes


def solve(game: Game, seed: int) -> Solution:
    """Solve the deal of ``seed``: P1's margin under perfect information and one optimal line.

    The notes give the value under the players' own information for the last
    drafts of that line (see :mod:`.information`).
    """
    from cardgen.games.ceratopsians.information import endgame_note

    boneyard_of(game)  # TypeError for a game without the mechanic
    state = game.new_initial_state(seed)
    value, slots, nodes = solve_state(state)
    return Solution(
        value=float(value),
        actions=tuple(draft_action(game, slot) for slot in slots),
        proved=True,
        nodes=nodes,
        detail="first player's score margin (P1 minus P2) under perfect play",
        information=INFORMATION,
        notes=endgame_note(state, slots),
    )


def optimal_first_move(game: Game, seed: int) -> int:
    """The slot an optimal first player drafts first in the deal of ``seed`` (perfect information)."""
    return solve_state(game.new_initial_state(seed))[1][0]


def first_player_edge(game: Game, seeds: Iterable[int]) -> tuple[float, list[int]]:
    """The first player's mean perfect-information margin over the deals of ``seeds``, and each deal's margin."""
    margins = [solve_state(game.new_initial_state(seed))[0] for seed in seeds]
    return (mean(margins) if margins else 0.0), margins
