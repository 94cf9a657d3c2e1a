"""Crazy Eights, hand-written from specs/crazy-eights' rulebook and clarifications: the reference for its rules data.

Written from the rulebook's words, not from the interpreter: the stock, the discard pile,
the hands, the suit to follow and the draws of this turn, kept as plain lists and names.
It shares only the conventions every implementation of the spec must agree on to deal the
same cards: the deck in the spec's card order, shuffled with ``random.Random(seed).shuffle``,
its top at the end of the list, dealt one card at a time round the table from the first seat.

Actions are readable strings: ``play <card id>``, ``draw``, ``pass``, ``suit <suit>``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from cardgen.spec.models import Spec


@dataclass
class Card:
    id: str
    suit: str
    rank: int
    points: int
    wild: bool


@dataclass
class CrazyEights:
    """One game of Crazy Eights at a player count."""

    spec: Spec
    players: int
    seed: int
    stock: list[Card] = field(default_factory=list)
    discard: list[Card] = field(default_factory=list)
    hands: list[list[Card]] = field(default_factory=list)
    suit: str = ""
    seat: int = 0
    draws: int = 0
    passes_in_a_row: int = 0
    naming_suit: bool = False
    over: bool = False

    def __post_init__(self) -> None:
        deck = next(d for d in self.spec.decks if d.id == "standard")
        cards = []
        for c in deck.cards:
            rank, points = c.data["rank"], c.data["points"]
            assert isinstance(rank, int) and isinstance(points, int)
            cards += [Card(c.id, str(c.data["suit"]), rank, points, c.effect == "wild")] * c.copies
        random.Random(self.seed).shuffle(cards)
        self.stock = cards
        deal = next(s for s in self.spec.setups if s.players == self.players).deal["standard"]
        self.hands = [[] for _ in range(self.players)]
        for _ in range(deal):
            for hand in self.hands:
                hand.append(self.stock.pop())
        self.discard = [self.stock.pop()]
        self.suit = self.discard[-1].suit  # clarification 1: a starting eight's own suit is followed

    # -- the rules ------------------------------------------------------------------------

    def playable(self, card: Card) -> bool:
        return card.wild or card.suit == self.suit or card.rank == self.discard[-1].rank

    def legal(self) -> list[str]:
        if self.over:
            return []
        if self.naming_suit:
            return [f"suit {s}" for s in ("spades", "hearts", "diamonds", "clubs")]
        hand = self.hands[self.seat]
        moves = sorted({f"play {c.id}" for c in hand if self.playable(c)})
        if self.stock and self.draws < self.spec.numbers["max_draws"]:
            moves.append("draw")
        return moves or ["pass"]

    def apply(self, move: str) -> None:
        assert move in self.legal(), (move, self.legal())
        verb, _, what = move.partition(" ")
        if verb == "suit":
            self.suit = what
            self.naming_suit = False
            self._next_turn()
        elif verb == "play":
            hand = self.hands[self.seat]
            card = next(c for c in hand if c.id == what)
            hand.remove(card)
            self.discard.append(card)
            self.suit = card.suit
            self.passes_in_a_row = 0
            if not hand:
                self.over = True
            elif card.wild:
                self.naming_suit = True  # the eight's player names the suit before the turn passes
            else:
                self._next_turn()
        elif verb == "draw":
            self.hands[self.seat].append(self.stock.pop())
            self.draws += 1
            self.passes_in_a_row = 0
        else:
            self.passes_in_a_row += 1
            if self.passes_in_a_row >= self.players:
                self.over = True
            else:
                self._next_turn()

    def _next_turn(self) -> None:
        self.seat = (self.seat + 1) % self.players
        self.draws = 0

    def scores(self) -> list[int]:
        return [-sum(c.points for c in hand) for hand in self.hands]

    def position(self) -> dict[str, object]:
        """Everything a player or an observer could ask about the position, by card id."""
        return {
            "stock": [c.id for c in self.stock],
            "discard": [c.id for c in self.discard],
            "hands": [sorted(c.id for c in hand) for hand in self.hands],
            "suit": self.suit,
            "to_move": None if self.over else self.seat,
            "scores": self.scores(),
        }
