"""Keramikos' hand-written engine, the reference of its rules data: a push-your-luck dig for sets of Greek pottery.

The shipped game is played by the interpreter from the ``rules:`` mapping of ``specs/keramikos/game.yaml``;
this engine, the one the game shipped with, is kept as the reference it is checked against move for move
(``tests/engine/test_lockstep_keramikos.py``). It is registered as no rules module.

Everything the rules read comes from the spec: the dig-site deck (dice totals
and levels), the excavation deck (pottery sets and special cards), the dice and
the ``numbers``. The readings of the spec's numbered clarifications are noted
in the code as ``(clar. N)``.

Position layout (flat lists of ints, copied on ``clone``):

* ``deck``: card kinds, the top of the deck is the *last* element.
* ``stacks[s]``: card kinds under dig site ``s``; index 0 is the top card
  (the one nearest the site card, the one a plain mark lands on).
* ``marks[s]``: how many cards from the top of stack ``s`` carry a marker of
  the player to move (marked cards are always a prefix of the stack);
  ``site_mark[s]`` is 1 when a marker lies on the (empty) site card itself.
* ``coll[p][k]``: pottery of kind ``k`` in seat ``p``'s collection;
  ``hand[p][j]``: special cards of special index ``j`` held by seat ``p``;
  ``discard[k]``: cards of kind ``k`` in the discard pile.

Card kinds: pottery designs first (``0 .. P-1``, one design per set), then the
special cards (``P .. P+S-1``).
"""

from __future__ import annotations

import itertools
import random
from bisect import bisect_right
from dataclasses import dataclass
from typing import Iterable, Iterator, Sequence

from cardgen.engine.core import CHANCE, TERMINAL, Action, Game, GameInfo, Seat, State, Termination
from cardgen.engine.state_copy import state_methods
from cardgen.spec.contract import WHOLE_DECK, ComponentRule, DeckRule, DiceRule, NumberRule, OptionRule, RulesContract, SetupRule, read_option
from cardgen.spec.models import MAX_PLAYERS, Spec
from cardgen.spec.source import PathKey

# --- phases -------------------------------------------------------------------
DECIDE = 0
"""The player to move chooses: roll (again), stop, or play Trash / Sort."""
ROLLING = 1
"""Chance step: the two dice are rolled."""
SABOTAGE_WINDOW = 2
"""An opponent holding Sabotage decides whether to force a reroll."""
RESOLVE = 3
"""The roller decides how to use the roll: mark, doubles option, burn, Reroll."""
TAKE = 4
"""After marking an empty site: choose the level-1 pottery set to take."""
STEAL = 5
"""After collecting a Steal card: choose whose pottery to take."""
BURN = 6
"""After choosing to burn: pick the pottery card to discard."""
OVER = 7
SORTING = 8
"""After playing Sort on a stack: choose, card by card from the top, the new order of its unmarked cards."""

# --- actions ------------------------------------------------------------------
A_ROLL = 0
A_STOP = 1
A_MARK = 2
"""Accept the roll: mark the matching site (or bust if it is already marked)."""
A_MARK_EXTRA = 3
"""Mark the matching site's top card and play Extra Mark on the card below."""
A_REROLL = 4
"""Play a Reroll card on one's own roll."""
A_SABOTAGE = 5
A_PASS = 6
A_BURN_DECLARE = 7
"""Burn a pottery card to reroll (the card is picked next, so one choice stands for all burns)."""
A_DEEPEN = 10
"""+ site: doubles, mark the card below the lowest marked card of that site."""
A_DEEPEN_EXTRA = 20
"""+ site: doubles option with Extra Mark (two cards below)."""
A_BURN = 100
"""+ pottery kind: the card discarded after A_BURN_DECLARE."""
A_TAKE = 200
"""+ pottery kind: take that level-1 set's copy from the table."""
A_TRASH = 300
"""+ card kind: take it from the discard pile (Trash card; pottery only under trash_takes=pottery)."""
A_STEAL = 400
"""+ seat * 100 + pottery kind."""
A_SORT = 1000
"""+ site: play Sort on that stack (its new order is chosen next, in the SORTING phase)."""
A_SORT_PICK = 2000
"""+ card kind: the next card of the stack being sorted, from the top down (one action per kind, so each
order of the stack is reached by exactly one sequence and each step offers at most one action per kind)."""
A_DICE = 5000
"""+ (die1 - 1) * sides + (die2 - 1): a chance outcome."""

EFFECTS = ("reroll", "steal", "trash", "excavation", "complete", "sort", "extra_mark", "sabotage")


@dataclass(frozen=True)
class ScoreDetail:
    """One seat's final score and tiebreak vector."""

    score: int
    cards_in_complete_sets: int
    complete_by_level: tuple[int, ...]
    """Complete sets per level, highest level first."""
    completed_sets: tuple[int, ...]
    """Pottery kinds counted complete (Complete cards included)."""
    complete_cards_used: int

    @property
    def key(self) -> tuple[int, ...]:
        """The ranking key: score, then the tiebreakers in order."""
        return (self.score, self.cards_in_complete_sets) + self.complete_by_level


def _levels_have_sites(spec: Spec) -> Iterator[tuple[PathKey, str]]:
    """Every pottery level lies under some dig site, and the empty-site level is one of them."""
    decks = {d.id: (i, d) for i, d in enumerate(spec.decks)}
    if "dig-sites" not in decks or "excavation" not in decks:
        return
    site_levels = [c.data.get("level") for c in decks["dig-sites"][1].cards]  # a list: a mistyped level may be unhashable
    d_index, dig = decks["excavation"]
    for c_index, card in enumerate(dig.cards):
        level = card.data.get("level")
        if card.type == "pottery" and level not in site_levels:
            yield ("decks", d_index, "cards", c_index, "data", "level"), f"pottery {card.id!r} has level {level}, but no dig site has that level"
    take = spec.numbers.get("empty_site_take_level")
    if take is not None and take not in site_levels:
        yield ("numbers", "empty_site_take_level"), f"numbers.empty_site_take_level is {take}, but no dig site has that level"


CONTRACT = RulesContract(
    players=(2, MAX_PLAYERS),
    numbers={
        "excavation_draw": NumberRule(1, 10, "pottery cards the Excavation card takes", effect="excavation"),
        "pieces_per_point": NumberRule(1, 10, "pieces of an incomplete set that score one point"),
        "extra_mark_cards": NumberRule(1, 10, "further cards the Extra Mark card marks", effect="extra_mark"),
        "empty_site_take_level": NumberRule(1, 10, "the level of pottery taken from an empty site"),
        "final_turns_per_player": NumberRule(0, 10, "turns each player still plays once the deck runs out"),
    },
    options={
        "complete_card": OptionRule(
            ("set", "piece"), "set", "what a Complete card fills at scoring: every missing piece of one started set, or one missing piece"
        ),
        "trash_takes": OptionRule(("any", "pottery"), "any", "what Trash may take from the discard pile: any card, or pottery only"),
        "site_cards": OptionRule(
            ("pottery", "any"),
            "pottery",
            "which cards the empty-site and doubles rules look at: a site with no pottery is empty and doubles mark a "
            "pottery card, or any card counts",
        ),
    },
    decks={
        "dig-sites": DeckRule(fields={"totals": "int_list", "level": "int"}, copies="one", card_types=frozenset({"site"})),
        "excavation": DeckRule(
            fields={"level": "int", "set": "text", "set_size": "int", "points": "int"},
            effects=frozenset(EFFECTS),
            card_types=frozenset({"pottery", "special"}),
        ),
    },
    setup=SetupRule(grids={"dig-row": ("dig-sites", WHOLE_DECK)}),
    components={"marker": ComponentRule(per_player=True, min_count=1, max_count=60)},
    dice={"dice": DiceRule(count=(2, 2), sides=(2, 20))},
    checks=(_levels_have_sites,),
)
"""What these rules read. Each player's markers are the marker component's count; the dig sites are
always laid out whole, in the order of their totals."""


class KeramikosGame(Game):
    """Keramikos at one player count, with every fact precomputed from the spec."""

    rules_id = "keramikos"
    contract = CONTRACT

    def __init__(self, spec: Spec, num_players: int) -> None:
        super().__init__(spec, num_players)
        decks = {d.id: d for d in spec.decks}
        sites = decks["dig-sites"]
        dig = decks["excavation"]
        dice = next((d for d in spec.dice if d.id == "dice"), None)
        if dice is None or dice.count != 2:
            raise ValueError("keramikos rolls exactly two dice, with the id 'dice'")
        self.sides = dice.sides
        n = spec.numbers
        marker = next((c for c in spec.components if c.id == "marker"), None)
        if marker is None or not marker.per_player or marker.count < 1:
            raise ValueError("keramikos needs a per-player component 'marker' with a count of at least 1")
        self.markers: int = marker.count
        # A number read only for one effect is unread (and may be absent) when no card carries it.
        self.excavation_draw: int = n.get("excavation_draw", 0)
        self.pieces_per_point: int = n["pieces_per_point"]
        self.extra_cards: int = n.get("extra_mark_cards", 0)
        self.complete_set: bool = read_option(CONTRACT, spec, "complete_card") == "set"
        self.trash_any: bool = read_option(CONTRACT, spec, "trash_takes") == "any"
        self.pottery_sites: bool = read_option(CONTRACT, spec, "site_cards") == "pottery"
        self.take_level: int = n["empty_site_take_level"]
        self.final_turns: int = n["final_turns_per_player"]

        # dig sites, in the order the spec lays them out (lowest total first)
        self.site_ids: list[str] = [c.id for c in sites.cards]
        self.site_level: list[int] = []
        total_to_site: dict[int, int] = {}
        for s, card in enumerate(sites.cards):
            level = card.data["level"]
            totals = card.data["totals"]
            assert isinstance(level, int) and isinstance(totals, list)
            self.site_level.append(level)
            for t in totals:
                assert isinstance(t, int)
                total_to_site[t] = s
        self.num_sites = len(self.site_ids)
        self.levels: list[int] = sorted(set(self.site_level))
        self.all_sites: list[int] = list(range(self.num_sites))
        self.sites_of_level: dict[int, list[int]] = {lv: [s for s in range(self.num_sites) if self.site_level[s] == lv] for lv in self.levels}

        # card kinds: pottery first, then specials
        pottery = [c for c in dig.cards if c.type == "pottery"]
        specials = [c for c in dig.cards if c.type == "special"]
        self.kind_ids: list[str] = [c.id for c in pottery] + [c.id for c in specials]
        self.num_pottery = len(pottery)
        self.copies: list[int] = [c.copies for c in pottery] + [c.copies for c in specials]
        self.level: list[int] = []
        self.set_size: list[int] = []
        self.points: list[int] = []
        self.set_ids: list[str] = []
        for c in pottery:
            lv, size, pts, set_id = c.data["level"], c.data["set_size"], c.data["points"], c.data["set"]
            assert isinstance(lv, int) and isinstance(size, int) and isinstance(pts, int) and isinstance(set_id, str)
            self.level.append(lv)
            self.set_size.append(size)
            self.points.append(pts)
            self.set_ids.append(set_id)
        self.complete_pieces: int = max(self.set_size, default=1) if self.complete_set else 1
        """Missing pieces one Complete card fills: a whole set (clar. 16) or one piece (option complete_card=piece)."""
        for k, lv in enumerate(self.level):
            if lv not in self.sites_of_level:
                raise ValueError(f"pottery {self.kind_ids[k]!r} has level {lv}, but no dig site has that level")
        self.level_rank: list[int] = [len(self.levels) - 1 - self.levels.index(lv) for lv in self.level]
        """Index of each pottery kind's level in the tiebreak vector (highest level first)."""
        self.special_effect: list[str] = []
        for c in specials:
            if c.effect not in EFFECTS:
                raise ValueError(f"special card {c.id!r} has unknown effect {c.effect!r}")
            self.special_effect.append(c.effect)
        self.num_special = len(specials)
        eff = {e: j for j, e in enumerate(self.special_effect)}
        # A spec without some special card maps its effect to a dummy hand slot that stays 0.
        none = self.num_special
        self.sp_reroll = eff.get("reroll", none)
        self.sp_steal = eff.get("steal", none)
        self.sp_trash = eff.get("trash", none)
        self.sp_excavation = eff.get("excavation", none)
        self.sp_complete = eff.get("complete", none)
        self.sp_sort = eff.get("sort", none)
        self.sp_extra = eff.get("extra_mark", none)
        self.sp_sabotage = eff.get("sabotage", none)
        self.num_kinds = self.num_pottery + self.num_special
        self.total_cards = sum(self.copies)
        self.take_kinds: list[int] = [k for k in range(self.num_pottery) if self.level[k] == self.take_level]
        self.is_take_kind: list[bool] = [k < self.num_pottery and self.level[k] == self.take_level for k in range(self.num_kinds)]

        # dice outcomes: ordered pairs, each 1/sides^2
        self.outcome_site: list[int] = []
        self.outcome_double: list[bool] = []
        self.outcome_dice: list[tuple[int, int]] = []
        for d1 in range(1, self.sides + 1):
            for d2 in range(1, self.sides + 1):
                self.outcome_dice.append((d1, d2))
                self.outcome_site.append(total_to_site[d1 + d2])
                self.outcome_double.append(d1 == d2)
        p = 1.0 / (self.sides * self.sides)
        self.chance_list: list[tuple[Action, float]] = [(A_DICE + i, p) for i in range(self.sides * self.sides)]
        self.chance_actions: list[Action] = [A_DICE + i for i in range(self.sides * self.sides)]
        self.chance_cumulative: list[float] = []
        """Running sums of the outcome probabilities, added in the order State.sample_chance adds them."""
        total = 0.0
        for _, probability in self.chance_list:
            total += probability
            self.chance_cumulative.append(total)

        # usage keys: card:<id> for every card design and dig site, set:<id> for every set
        self.usage_names: list[str] = (
            [f"card:{cid}" for cid in self.kind_ids] + [f"card:{sid}" for sid in self.site_ids] + [f"set:{sid}" for sid in self.set_ids]
        )
        self.u_site = self.num_kinds
        self.u_set = self.num_kinds + self.num_sites
        self.max_points = sum(self.points)

    # --- Game API -------------------------------------------------------------

    def info(self) -> GameInfo:
        """A true bound on actions (see the comments) and the score range."""
        n = self.num_players
        # Turns before the end is triggered: phi = 2*deck + table drops by >= 1 each turn.
        turns = 2 * self.total_cards + n * self.final_turns + 1
        # Each accepted roll places >= 1 marker: at most `markers` accepted rolls + the busting one.
        rolls = self.markers + 1
        per_roll = 1 + (n - 1) + 1 + 1 + 1  # dice, sabotage window, resolve, take, decide
        per_turn = rolls * per_roll + 2  # + stop / first decide
        # Rerolls over the whole game: each burns a pottery card or spends a Reroll/Sabotage card.
        # A Trash card never takes a Trash card back, so each is played once and brings back at most one card
        # (a pottery card to burn, or a Reroll / Sabotage / Sort / Steal to play once more).
        trash = self._copies_of(self.sp_trash)
        burns = sum(self.copies[: self.num_pottery]) + trash
        rerolls = burns + self._copies_of(self.sp_reroll) + self._copies_of(self.sp_sabotage) + trash
        # Sort, Trash, Steal decisions; a Sort then picks at most one card per position of a stack.
        played = (sum(self.copies[self.num_pottery :]) + trash) * (self.total_cards + 2)
        bound = turns * per_turn + rerolls * (1 + (n - 1) + 2) + played + 1
        return GameInfo(num_players=n, max_game_length=bound, min_score=0, max_score=self.max_points)

    def _copies_of(self, special: int) -> int:
        return self.copies[self.num_pottery + special] if special < self.num_special else 0

    def new_initial_state(self, seed: int) -> "KeramikosState":
        """Shuffle the excavation deck with ``random.Random(seed)`` and lay out the sites (clar. 3)."""
        rng = random.Random(seed)
        excavation = next(d for d in self.spec.decks if d.id == "excavation")
        deck = [self.kind_ids.index(card.id) for card in excavation.cards for _ in range(card.copies)]  # the spec's card order
        rng.shuffle(deck)
        stacks: list[list[int]] = [[] for _ in range(self.num_sites)]
        aside: list[int] = []
        while deck:
            card = deck.pop()
            if card >= self.num_pottery:
                aside.append(card)
                continue
            empty = [s for s in self.sites_of_level.get(self.level[card], []) if not stacks[s]]
            if empty:
                stacks[empty[0]].append(card)
                continue
            candidates = self.sites_of_level.get(self.level[card], [])
            target = min(candidates, key=lambda s: (len(stacks[s]), s))
            stacks[target].append(card)
            break
        deck.extend(aside)
        rng.shuffle(deck)
        return KeramikosState(self, deck, stacks)

    def usage_keys(self) -> list[str]:
        """Every card design, dig site and set."""
        return list(self.usage_names)

    def proven_unusable(self) -> dict[str, str]:
        """Sets that have fewer cards than their size and that the Complete cards cannot finish either: a
        Complete card completes any started set (clar. 16), or one missing piece under complete_card=piece."""
        held: dict[str, int] = {}
        size: dict[str, int] = {}
        for k in range(self.num_pottery):
            held[self.set_ids[k]] = held.get(self.set_ids[k], 0) + self.copies[k]
            size[self.set_ids[k]] = max(size.get(self.set_ids[k], 0), self.set_size[k])
        completes = self._copies_of(self.sp_complete)
        fill = completes * self.complete_pieces
        return {
            f"set:{sid}": f"the set has {size[sid]} pieces but the deck holds {held[sid]} of its cards"
            + (f" and {completes} Complete card(s) fill at most {fill} more" if completes else "")
            for sid in held
            if held[sid] + fill < size[sid]
        }

    def greedy_value(self, state: State, seat: Seat) -> float:
        """Score margin counting the cards the player to move has marked as if banked."""
        assert isinstance(state, KeramikosState)
        scores = state.banked_scores()
        best_other = max(s for i, s in enumerate(scores) if i != seat)
        return float(scores[seat] - best_other)

    # --- scoring --------------------------------------------------------------

    def score_detail(self, coll: Sequence[int], completes: int) -> ScoreDetail:
        """Score a collection, placing ``completes`` Complete cards where they score most (clar. 16, 20)."""
        base, cards, by_level, done = self._plain(coll, ())
        best = ScoreDetail(base, cards, by_level, done, 0)
        if completes <= 0:
            return best
        cands = [k for k in range(self.num_pottery) if 0 < coll[k] < self.set_size[k] and self.set_size[k] - coll[k] <= completes * self.complete_pieces]
        for r in range(1, min(completes, len(cands)) + 1):
            for combo in itertools.combinations(cands, r):
                need = sum(-(-(self.set_size[k] - coll[k]) // self.complete_pieces) for k in combo)
                if need > completes:
                    continue
                score, cards, by_level, done = self._plain(coll, combo)
                detail = ScoreDetail(score, cards, by_level, done, need)
                if detail.key > best.key:
                    best = detail
        return best

    def _plain(self, coll: Sequence[int], filled: Sequence[int]) -> tuple[int, int, tuple[int, ...], tuple[int, ...]]:
        score = 0
        cards = 0
        by_level = [0] * len(self.levels)
        done: list[int] = []
        for k in range(self.num_pottery):
            c = coll[k]
            if c == 0:
                continue
            if c >= self.set_size[k] or k in filled:
                score += self.points[k]
                cards += c
                by_level[self.level_rank[k]] += 1
                done.append(k)
            else:
                score += c // self.pieces_per_point
        return score, cards, tuple(by_level), tuple(done)

    def fast_score(self, coll: Sequence[int], completes: int) -> int:
        """The score alone (same as ``score_detail(...).score``), quick when no Complete card is held."""
        if completes > 0:
            return self.score_detail(coll, completes).score
        score = 0
        ppp = self.pieces_per_point
        for k in range(self.num_pottery):
            c = coll[k]
            if c:
                score += self.points[k] if c >= self.set_size[k] else c // ppp
        return score


def _per_seat(values: Iterable[object]) -> str:
    """``P1 3, P2 0``: one value per seat, for a position's summary."""
    return ", ".join(f"P{seat + 1} {value}" for seat, value in enumerate(values))


class KeramikosState(State):
    """One Keramikos position."""

    __slots__ = (
        "g", "deck", "stacks", "marks", "site_mark", "coll", "hand", "discard", "supply",
        "player", "phase", "roll", "sab_seat", "steals", "final_left", "use", "turns", "placed_at_stop",
        "sort_site", "sort_pos", "trash_steal",
    )

    clone, fingerprint = state_methods(
        __slots__,
        shared="g",
        lists="deck marks site_mark discard supply use",
        nested="stacks coll hand",
        values="player phase roll sab_seat steals final_left turns placed_at_stop sort_site sort_pos trash_steal",
        fingerprint="player phase roll sab_seat steals final_left placed_at_stop sort_site sort_pos trash_steal deck stacks marks site_mark coll hand discard supply",
    )
    """``clone()`` and ``fingerprint()``, generated from the fields declared here (:mod:`cardgen.engine.state_copy`)."""

    def __init__(self, game: KeramikosGame, deck: list[int], stacks: list[list[int]]) -> None:
        g = game
        n = g.num_players
        self.g = g
        self.deck = deck
        self.stacks = stacks
        self.marks = [0] * g.num_sites
        self.site_mark = [0] * g.num_sites
        self.coll = [[0] * g.num_pottery for _ in range(n)]
        self.hand = [[0] * (g.num_special + 1) for _ in range(n)]
        """Special cards held, by special index; the last slot is a dummy that stays 0."""
        self.discard = [0] * g.num_kinds
        self.supply = [g.markers] * n
        self.player = 0
        self.phase = DECIDE
        self.roll = -1
        """The pending dice outcome index (RESOLVE / SABOTAGE_WINDOW), else -1."""
        self.sab_seat = -1
        self.steals = 0
        self.final_left = -1
        """-1 until the deck is empty at a turn's end; then the final turns still to play."""
        self.use = [0] * len(g.usage_names)
        self.turns = 0
        self.placed_at_stop = 0
        """Markers placed in the turn being finished by a stop (the refill count while Steals resolve)."""
        self.sort_site = -1
        """The stack being sorted (SORTING), else -1."""
        self.sort_pos = 0
        """The position of that stack whose card is chosen next."""
        self.trash_steal = False
        """Whether the Steal being resolved was taken from the discard pile by Trash (the turn goes on after it)."""

    # --- basic API ------------------------------------------------------------

    def current_player(self) -> Seat:
        """The seat to move, CHANCE while rolling, TERMINAL when over."""
        ph = self.phase
        if ph == ROLLING:
            return CHANCE
        if ph == OVER:
            return TERMINAL
        if ph == SABOTAGE_WINDOW:
            return self.sab_seat
        return self.player

    def is_terminal(self) -> bool:
        """Whether every final turn has been played."""
        return self.phase == OVER

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """The ordered pairs of the two dice, each equally likely."""
        if self.phase != ROLLING:
            return []
        return list(self.g.chance_list)

    def sample_chance(self, rng: random.Random) -> Action:
        """The dice outcome :meth:`State.sample_chance` would draw, found by bisection on the running sums."""
        if self.phase != ROLLING:
            return State.sample_chance(self, rng)
        g = self.g
        index = bisect_right(g.chance_cumulative, rng.random())
        actions = g.chance_actions
        return actions[index] if index < len(actions) else actions[-1]

    def placed(self) -> int:
        """Markers the player to move has on the table."""
        return sum(self.marks) + sum(self.site_mark)

    # --- legal actions ----------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Sorted legal actions (chance outcomes while rolling)."""
        ph = self.phase
        g = self.g
        p = self.player
        if ph == ROLLING:
            return list(g.chance_actions)
        if ph == DECIDE:
            sup = self.supply[p]
            if sup >= g.markers:
                out = [A_ROLL]
            elif sup:
                out = [A_ROLL, A_STOP]
            else:
                out = [A_STOP]
            hand = self.hand[p]
            if hand[g.sp_trash]:
                out.extend(A_TRASH + k for k in self._trash_targets())
            if hand[g.sp_sort]:
                out.extend(A_SORT + s for s in range(g.num_sites) if len(set(self.stacks[s][self.marks[s] :])) > 1)
            return out
        if ph == SORTING:
            return sorted(A_SORT_PICK + k for k in set(self.stacks[self.sort_site][self.sort_pos :]))
        if ph == RESOLVE:
            roll = self.roll
            hand = self.hand[p]
            extra = hand[g.sp_extra] > 0 and self.supply[p] > g.extra_cards
            out = [A_MARK]
            if extra:
                site = g.outcome_site[roll]
                if not (self.marks[site] or self.site_mark[site] or self._empty(site)) and len(self.stacks[site]) > g.extra_cards:
                    out.append(A_MARK_EXTRA)
            if hand[g.sp_reroll]:
                out.append(A_REROLL)
            if any(self.coll[p]):
                out.append(A_BURN_DECLARE)
            if g.outcome_double[roll]:
                deep: list[Action] = []
                marks = self.marks
                pottery_only = g.pottery_sites
                np_ = g.num_pottery
                for s in range(g.num_sites):
                    m = marks[s]
                    if m and m < len(self.stacks[s]) and not (pottery_only and self.stacks[s][m] >= np_):
                        out.append(A_DEEPEN + s)
                        if extra and m + 1 + g.extra_cards <= len(self.stacks[s]):
                            deep.append(A_DEEPEN_EXTRA + s)
                out.extend(deep)
            return out
        if ph == BURN:
            c = self.coll[p]
            return [A_BURN + k for k in range(g.num_pottery) if c[k]]
        if ph == SABOTAGE_WINDOW:
            return [A_SABOTAGE, A_PASS]
        if ph == TAKE:
            present = [False] * g.num_kinds
            for s in range(g.num_sites):
                st = self.stacks[s]
                for i in range(self.marks[s], len(st)):
                    present[st[i]] = True
            return [A_TAKE + k for k in g.take_kinds if present[k]]
        if ph == STEAL:
            return self._steal_targets()
        return []

    def _empty(self, site: int) -> bool:
        """Whether a site counts as empty: no pottery card in its stack (clar. 8), or no card at all (site_cards=any)."""
        st = self.stacks[site]
        if not self.g.pottery_sites:
            return not st
        np_ = self.g.num_pottery
        for card in st:
            if card < np_:
                return False
        return True

    def _trash_targets(self) -> list[int]:
        """Card kinds Trash may take: any card in the discard pile but a Trash (taking one back would change
        nothing), or pottery only (trash_takes=pottery)."""
        g = self.g
        disc = self.discard
        kinds = range(g.num_kinds) if g.trash_any else range(g.num_pottery)
        return [k for k in kinds if disc[k] and k != g.num_pottery + g.sp_trash]

    def _steal_targets(self) -> list[Action]:
        g = self.g
        out: list[Action] = []
        for q in range(g.num_players):
            if q == self.player:
                continue
            c = self.coll[q]
            out.extend(A_STEAL + q * 100 + k for k in range(g.num_pottery) if 0 < c[k] < g.set_size[k])
        return out

    # --- applying actions -------------------------------------------------------

    def apply_action(self, action: Action) -> None:
        """Play one action; raises ValueError for an action that is not legal."""
        ph = self.phase
        g = self.g
        p = self.player
        if ph == ROLLING:
            idx = action - A_DICE
            if not 0 <= idx < len(g.outcome_site):
                raise ValueError(f"not a dice outcome: {action}")
            self.roll = idx
            self._open_sabotage_window(p)
            return
        if ph == DECIDE:
            if action == A_ROLL:
                if self.supply[p] < 1:
                    raise ValueError("no marker left to roll for")
                self.phase = ROLLING
                return
            if action == A_STOP:
                if self.supply[p] >= g.markers:
                    raise ValueError("nothing marked yet")
                self._stop()
                return
            if A_TRASH <= action < A_TRASH + g.num_kinds:
                k = action - A_TRASH
                if not self.hand[p][g.sp_trash] or k not in self._trash_targets():
                    raise ValueError("Trash not possible")
                self.discard[k] -= 1
                self._spend(p, g.sp_trash)
                self._trashed(k)
                return
            if A_SORT <= action < A_SORT + g.num_sites:
                s = action - A_SORT
                if not self.hand[p][g.sp_sort] or len(set(self.stacks[s][self.marks[s] :])) < 2:
                    raise ValueError("Sort not possible on that stack")
                self._spend(p, g.sp_sort)
                self.sort_site = s
                self.sort_pos = self.marks[s]
                self.phase = SORTING
                return
            raise ValueError(f"illegal action {action} when deciding")
        if ph == RESOLVE:
            self._resolve(action)
            return
        if ph == SORTING:
            st = self.stacks[self.sort_site]
            pos = self.sort_pos
            k = action - A_SORT_PICK
            if k not in st[pos:]:
                raise ValueError(f"no {k} left to place in the stack being sorted")
            st.insert(pos, st.pop(st.index(k, pos)))
            self.sort_pos = pos + 1
            if len(set(st[pos + 1 :])) < 2:  # the rest has one order only
                self.sort_site = -1
                self.sort_pos = 0
                self.phase = DECIDE
            return
        if ph == SABOTAGE_WINDOW:
            q = self.sab_seat
            if action == A_SABOTAGE:
                self._spend(q, g.sp_sabotage)
                self.sab_seat = -1
                self.roll = -1
                self.phase = ROLLING
            elif action == A_PASS:
                self._open_sabotage_window(q)
            else:
                raise ValueError(f"illegal action {action} in the sabotage window")
            return
        if ph == TAKE:
            k = action - A_TAKE
            if not (0 <= k < g.num_pottery and g.is_take_kind[k]):
                raise ValueError(f"illegal take {action}")
            for s in range(g.num_sites):
                st = self.stacks[s]
                for i in range(self.marks[s], len(st)):
                    if st[i] == k:
                        del st[i]
                        self._gain(p, k)
                        self.use[k] += 1
                        self.phase = DECIDE
                        return
            raise ValueError(f"no unmarked {g.kind_ids[k]} on the table")
        if ph == BURN:
            k = action - A_BURN
            if not (0 <= k < g.num_pottery and self.coll[p][k]):
                raise ValueError("no such pottery to burn")
            self.coll[p][k] -= 1
            self.discard[k] += 1
            self.roll = -1
            self.phase = ROLLING
            return
        if ph == STEAL:
            q, k = divmod(action - A_STEAL, 100)
            if not (0 <= q < g.num_players and q != p and 0 <= k < g.num_pottery and 0 < self.coll[q][k] < g.set_size[k]):
                raise ValueError(f"illegal steal {action}")
            self.coll[q][k] -= 1
            self._gain(p, k)
            self.steals -= 1
            if self.trash_steal:
                self.trash_steal = False
                self.phase = DECIDE
                return
            self._after_steal()
            return
        raise ValueError("the game is over")

    def _trashed(self, kind: int) -> None:
        """The card Trash took from the discard pile: pottery joins the collection, a card to keep goes to the
        hand, and a use-at-once card is used now (clar. 14)."""
        g = self.g
        p = self.player
        if kind < g.num_pottery:
            self._gain(p, kind)
            return
        j = kind - g.num_pottery
        if j == g.sp_excavation:
            self.discard[kind] += 1
            self.use[kind] += 1
            self._excavate()
        elif j == g.sp_steal:
            self.discard[kind] += 1
            self.use[kind] += 1
            if self._steal_targets():
                self.steals = 1
                self.trash_steal = True
                self.phase = STEAL
        else:
            self.hand[p][j] += 1

    def _spend(self, seat: int, special: int) -> None:
        """Play a held special card: it goes to the discard pile and counts as used."""
        g = self.g
        if special >= g.num_special or self.hand[seat][special] <= 0:
            raise ValueError("that card is not in hand")
        self.hand[seat][special] -= 1
        self.discard[g.num_pottery + special] += 1
        self.use[g.num_pottery + special] += 1

    def _gain(self, seat: int, kind: int) -> None:
        """One pottery card joins ``seat``'s collection; a set reaching its size counts as completed."""
        g = self.g
        c = self.coll[seat]
        c[kind] += 1
        if c[kind] == g.set_size[kind]:
            self.use[g.u_set + kind] += 1

    def _open_sabotage_window(self, after: int) -> None:
        """Give the next opponent (seat order from ``after``) holding Sabotage the choice, else resolve."""
        g = self.g
        sab = g.sp_sabotage
        p = self.player
        held = False
        for h in self.hand:
            if h[sab]:
                held = True
                break
        if held:
            n = g.num_players
            q = (after + 1) % n
            while q != p:
                if self.hand[q][sab]:
                    self.sab_seat = q
                    self.phase = SABOTAGE_WINDOW
                    return
                q = (q + 1) % n
        self.sab_seat = -1
        self.phase = RESOLVE

    def _resolve(self, action: Action) -> None:
        g = self.g
        p = self.player
        roll = self.roll
        site = g.outcome_site[roll]
        if action == A_MARK or action == A_MARK_EXTRA:
            self.use[g.u_site + site] += 1
            if self.marks[site] or self.site_mark[site]:
                if action == A_MARK_EXTRA:
                    raise ValueError("Extra Mark cannot go on a marked site")
                self._bust()
                return
            st = self.stacks[site]
            if action == A_MARK_EXTRA:
                if not (self.hand[p][g.sp_extra] and len(st) > g.extra_cards and self.supply[p] >= 1 + g.extra_cards) or self._empty(site):
                    raise ValueError("Extra Mark not possible")
                self._spend(p, g.sp_extra)
                self.marks[site] = 1 + g.extra_cards
                self.supply[p] -= 1 + g.extra_cards
                self._after_mark()
                return
            self.supply[p] -= 1
            if not self._empty(site):
                self.marks[site] = 1
                self._after_mark()
                return
            # empty dig site (clar. 8)
            self.site_mark[site] = 1
            self.roll = -1
            if self._any_take():
                self.phase = TAKE
            else:
                self.phase = DECIDE
            return
        if action == A_REROLL:
            if not self.hand[p][g.sp_reroll]:
                raise ValueError("no Reroll card")
            self._spend(p, g.sp_reroll)
            self.roll = -1
            self.phase = ROLLING
            return
        if A_DEEPEN <= action < A_DEEPEN + g.num_sites or A_DEEPEN_EXTRA <= action < A_DEEPEN_EXTRA + g.num_sites:
            with_extra = action >= A_DEEPEN_EXTRA
            s = action - (A_DEEPEN_EXTRA if with_extra else A_DEEPEN)
            m = self.marks[s]
            add = 1 + (g.extra_cards if with_extra else 0)
            if not g.outcome_double[roll] or not m or m + add > len(self.stacks[s]) or self.supply[p] < add:
                raise ValueError("that doubles option is not possible")
            if g.pottery_sites and self.stacks[s][m] >= g.num_pottery:
                raise ValueError("doubles mark a pottery card (clar. 7)")
            if with_extra:
                if not self.hand[p][g.sp_extra]:
                    raise ValueError("no Extra Mark card")
                self._spend(p, g.sp_extra)
            self.marks[s] = m + add
            self.supply[p] -= add
            self._after_mark()
            return
        if action == A_BURN_DECLARE:
            if not any(self.coll[p]):
                raise ValueError("no pottery to burn")
            self.phase = BURN
            return
        raise ValueError(f"illegal action {action} after a roll")

    def _after_mark(self) -> None:
        self.roll = -1
        self.phase = DECIDE

    def _any_take(self) -> bool:
        g = self.g
        take = g.is_take_kind
        for s in range(g.num_sites):
            st = self.stacks[s]
            for i in range(self.marks[s], len(st)):
                if take[st[i]]:
                    return True
        return False

    def _clear_markers(self) -> int:
        placed = self.placed()
        self.supply[self.player] += placed
        ns = self.g.num_sites
        self.marks = [0] * ns
        self.site_mark = [0] * ns
        return placed

    def _bust(self) -> None:
        """Already marked: collect nothing, refill one card per marker placed (clar. 6, 10)."""
        placed = self._clear_markers()
        self._refill(placed)
        self._end_turn()

    def _stop(self) -> None:
        """Collect every marked card; use-at-once specials resolve (clar. 11)."""
        g = self.g
        p = self.player
        coll = self.coll[p]
        hand = self.hand[p]
        np_ = g.num_pottery
        excavations = 0
        for s in range(g.num_sites):
            m = self.marks[s]
            if not m:
                continue
            st = self.stacks[s]
            for card in st[:m]:
                if card < np_:
                    coll[card] += 1
                    self.use[card] += 1
                    if coll[card] == g.set_size[card]:
                        self.use[g.u_set + card] += 1
                else:
                    j = card - np_
                    if j == g.sp_steal:
                        self.steals += 1
                        self.discard[card] += 1
                        self.use[card] += 1
                    elif j == g.sp_excavation:
                        excavations += 1
                        self.discard[card] += 1
                        self.use[card] += 1
                    else:
                        hand[j] += 1
            del st[:m]
        placed = self._clear_markers()
        for _ in range(excavations):
            self._excavate()
        self.phase = STEAL
        self.placed_at_stop = placed
        self._after_steal()

    def _after_steal(self) -> None:
        """Go on with the next Steal decision, or finish the stop: refill if a site is empty."""
        while self.steals > 0:
            if self._steal_targets():
                self.phase = STEAL
                return
            self.steals -= 1  # no legal target: the Steal is discarded without effect
        placed = self.placed_at_stop
        self.placed_at_stop = 0
        if any(self._empty(s) for s in range(self.g.num_sites)):  # clar. 8, 10: empty as the Mark rule says
            self._refill(placed)
        self._end_turn()

    def _excavate(self) -> None:
        """Take the first pottery cards from the top of the deck, skipping specials (clar. 15)."""
        g = self.g
        p = self.player
        taken = 0
        i = len(self.deck) - 1
        while i >= 0 and taken < g.excavation_draw:
            card = self.deck[i]
            if card < g.num_pottery:
                del self.deck[i]
                self._gain(p, card)
                self.use[card] += 1
                taken += 1
            i -= 1

    def _refill(self, count: int) -> None:
        """Draw ``count`` cards and place each beneath the smallest fitting stack, leftmost on ties (clar. 10)."""
        g = self.g
        deck = self.deck
        stacks = self.stacks
        np_ = g.num_pottery
        for _ in range(count):
            if not deck:
                return
            card = deck.pop()
            candidates = g.sites_of_level[g.level[card]] if card < np_ else g.all_sites
            best = -1
            best_len = 1 << 30
            for s in candidates:
                ln = len(stacks[s])
                if ln < best_len:
                    best, best_len = s, ln
            stacks[best].append(card)

    def _end_turn(self) -> None:
        """Pass the turn; count down the final round once the deck is empty (clar. 19)."""
        g = self.g
        self.roll = -1
        self.turns += 1
        if self.final_left < 0:
            if not self.deck:
                self.final_left = g.num_players * g.final_turns
        else:
            self.final_left -= 1
            if self.final_left <= 0:
                self.phase = OVER
                self._finish_usage()
                return
        self.player = (self.player + 1) % g.num_players
        self.phase = DECIDE

    def _finish_usage(self) -> None:
        g = self.g
        for p in range(g.num_players):
            completes = self.hand[p][g.sp_complete]
            detail = g.score_detail(self.coll[p], completes)
            for k in detail.completed_sets:
                if self.coll[p][k] < g.set_size[k]:  # completed by a Complete card at scoring
                    self.use[g.u_set + k] += 1
            if detail.complete_cards_used and g.sp_complete < g.num_special:
                self.use[g.num_pottery + g.sp_complete] += detail.complete_cards_used

    # --- scores -------------------------------------------------------------------

    def _completes(self, p: int) -> int:
        g = self.g
        return self.hand[p][g.sp_complete]

    def scores(self) -> list[int]:
        """Every seat's score from its collection (and Complete cards), as the end count would give."""
        g = self.g
        return [g.fast_score(self.coll[p], self._completes(p)) for p in range(g.num_players)]

    def details(self) -> list[ScoreDetail]:
        """Score and tiebreak vector of every seat."""
        g = self.g
        return [g.score_detail(self.coll[p], self._completes(p)) for p in range(g.num_players)]

    def banked_scores(self) -> list[int]:
        """Scores if the player to move stopped now (marked pottery counted as collected)."""
        g = self.g
        out = self.scores()
        if self.phase not in (OVER,) and self.placed():
            p = self.player
            coll = self.coll[p][:]
            for s in range(g.num_sites):
                for card in self.stacks[s][: self.marks[s]]:
                    if card < g.num_pottery:
                        coll[card] += 1
            out[p] = g.fast_score(coll, self._completes(p))
        return out

    def ranking(self) -> list[list[Seat]]:
        """By score, then cards in complete sets, then complete sets by level from 4 down; then shared."""
        keys = [d.key for d in self.details()]
        order = sorted(set(keys), reverse=True)
        return [[seat for seat, k in enumerate(keys) if k == value] for value in order]

    def termination(self) -> Termination | None:
        """The game always ends the same way: the deck ran out and the final turns were played."""
        return Termination.DECK_EXHAUSTED if self.phase == OVER else None

    def summary(self) -> str:
        """Cards left in the deck, cards and empty sites marked this turn, and per seat: markers in supply, pottery and special cards."""
        pottery = (sum(kinds) for kinds in self.coll)
        specials = (sum(kinds) for kinds in self.hand)
        return (
            f"deck {len(self.deck)}; marked {sum(self.marks)} card(s), {sum(self.site_mark)} empty site(s); supply {_per_seat(self.supply)}; "
            f"pottery {_per_seat(pottery)}; specials {_per_seat(specials)}"
        )

    def usage(self) -> dict[str, int]:
        """Cards collected or played, dig sites marked, sets completed (each time a collection reaches a set's size)."""
        return {name: v for name, v in zip(self.g.usage_names, self.use) if v}

    # --- checks -------------------------------------------------------------------

    def conservation_errors(self) -> list[str]:
        """Every card in exactly one place, markers all accounted for, scores recomputed independently."""
        g = self.g
        errors: list[str] = []
        counts = [0] * g.num_kinds
        for card in self.deck:
            counts[card] += 1
        for st in self.stacks:
            for card in st:
                counts[card] += 1
        for p in range(g.num_players):
            for k in range(g.num_pottery):
                if self.coll[p][k] < 0:
                    errors.append(f"P{p + 1} holds {self.coll[p][k]} {g.kind_ids[k]}")
                counts[k] += self.coll[p][k]
            for j in range(g.num_special):
                if self.hand[p][j] < 0:
                    errors.append(f"P{p + 1} holds {self.hand[p][j]} {g.kind_ids[g.num_pottery + j]}")
                counts[g.num_pottery + j] += self.hand[p][j]
        for k in range(g.num_kinds):
            if self.discard[k] < 0:
                errors.append(f"discard holds {self.discard[k]} {g.kind_ids[k]}")
            counts[k] += self.discard[k]
            if counts[k] != g.copies[k]:
                errors.append(f"{g.kind_ids[k]}: {counts[k]} cards found, {g.copies[k]} exist")
        for s in range(g.num_sites):
            if not 0 <= self.marks[s] <= len(self.stacks[s]):
                errors.append(f"site {g.site_ids[s]}: {self.marks[s]} marks on {len(self.stacks[s])} cards")
            if self.site_mark[s] and self.stacks[s] and self.marks[s]:
                errors.append(f"site {g.site_ids[s]}: marker on the site and on its cards")
        for p in range(g.num_players):
            on_table = self.placed() if p == self.player and self.phase != OVER else 0
            if self.supply[p] + on_table != g.markers:
                errors.append(f"P{p + 1}: {self.supply[p]} markers in supply + {on_table} on the table != {g.markers}")
        if self.phase == OVER and self.placed():
            errors.append("markers left on the table at the end")
        for p, score in enumerate(self.scores()):
            slow = _slow_score(g, self.coll[p], self._completes(p))
            if slow != score:
                errors.append(f"P{p + 1}: score {score} but recounted {slow}")
        return errors

    # --- text -------------------------------------------------------------------

    def action_to_string(self, action: Action) -> str:
        """A readable line for replays."""
        g = self.g
        ph = self.phase
        who = f"P{self.player + 1}"
        if ph == ROLLING:
            idx = action - A_DICE
            if 0 <= idx < len(g.outcome_dice):
                d1, d2 = g.outcome_dice[idx]
                dbl = ", doubles" if d1 == d2 else ""
                return f"dice show {d1}+{d2} = {d1 + d2} ({g.site_ids[g.outcome_site[idx]]}{dbl})"
            return f"dice outcome {action}?"
        if ph == SABOTAGE_WINDOW:
            q = f"P{self.sab_seat + 1}"
            return f"{q} plays Sabotage: {who} must roll again" if action == A_SABOTAGE else f"{q} lets the roll stand"
        if action == A_ROLL:
            return f"{who} rolls the dice"
        if action == A_STOP:
            return f"{who} stops and collects {self.placed()} marker(s) worth of cards"
        if ph == RESOLVE and action in (A_MARK, A_MARK_EXTRA):
            site = g.outcome_site[self.roll]
            name = g.site_ids[site]
            if self.marks[site] or self.site_mark[site]:
                return f"{who} busts on {name}: nothing collected"
            st = self.stacks[site]
            if self._empty(site):
                return f"{who} marks the empty {name}"
            extra = f" and, with Extra Mark, {g.kind_ids[st[1]]} below it" if action == A_MARK_EXTRA else ""
            return f"{who} marks {g.kind_ids[st[0]]} on {name}{extra}"
        if action == A_REROLL:
            return f"{who} plays Reroll"
        if A_DEEPEN <= action < A_DEEPEN + g.num_sites or A_DEEPEN_EXTRA <= action < A_DEEPEN_EXTRA + g.num_sites:
            with_extra = action >= A_DEEPEN_EXTRA
            s = action - (A_DEEPEN_EXTRA if with_extra else A_DEEPEN)
            st = self.stacks[s]
            m = self.marks[s]
            card = g.kind_ids[st[m]] if m < len(st) else "?"
            tail = " with Extra Mark" if with_extra else ""
            return f"{who} uses doubles to mark {card} deeper in {g.site_ids[s]}{tail}"
        if action == A_BURN_DECLARE:
            return f"{who} burns a pottery card to roll again"
        if A_BURN <= action < A_BURN + g.num_pottery:
            return f"{who} discards a {g.kind_ids[action - A_BURN]}"
        if A_TAKE <= action < A_TAKE + g.num_pottery:
            return f"{who} takes a {g.kind_ids[action - A_TAKE]} for the empty site"
        if A_TRASH <= action < A_TRASH + g.num_kinds:
            return f"{who} plays Trash to take a {g.kind_ids[action - A_TRASH]} from the discard pile"
        if A_STEAL <= action < A_SORT:
            victim, kind = divmod(action - A_STEAL, 100)
            return f"{who} steals a {g.kind_ids[kind] if kind < g.num_pottery else '?'} from P{victim + 1}"
        if ph == DECIDE and A_SORT <= action < A_SORT + g.num_sites:
            return f"{who} plays Sort on {g.site_ids[action - A_SORT]}"
        if ph == SORTING and A_SORT_PICK <= action < A_SORT_PICK + g.num_kinds:
            return f"{who} puts {g.kind_ids[action - A_SORT_PICK]} next in {g.site_ids[self.sort_site]}"
        return f"{who} action {action}"


def _slow_score(g: KeramikosGame, coll: Sequence[int], completes: int) -> int:
    """An independent, brute-force recount of one collection (for conservation checks)."""
    pieces = [(k, coll[k]) for k in range(g.num_pottery) if coll[k]]
    best = -1
    # try every way of giving each Complete card to one started set (or to none)
    options = [k for k, _ in pieces] + [-1]
    for assignment in itertools.product(options, repeat=max(completes, 0)):
        extra: dict[int, int] = {}
        for k in assignment:
            if k >= 0:
                extra[k] = extra.get(k, 0) + g.complete_pieces
        total = 0
        for k, c in pieces:
            if c + extra.get(k, 0) >= g.set_size[k] and (c >= g.set_size[k] or extra.get(k, 0) > 0):
                total += g.points[k]
            else:
                total += c // g.pieces_per_point
        best = max(best, total)
    return max(best, 0)
