"""Trick taking, compiled once per Game: which cards a seat may play to the trick, and who wins it.

The trick rules (:class:`cardgen.spec.rules_data.Tricks`) become flat per-design
tables (the value followed and the rank of every design) and a few compiled
expressions, so a play costs a list scan of the seat's hand and a resolution a
loop over one card per seat. The validator has already refused what this could
not play (CG178): one card per seat per trick, played from the seat's own zone,
and nothing else moving cards into or out of the trick.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence

from cardgen.engine.interpreter.compile import ExprFunction, Tables, compile_expression
from cardgen.spec.rules_data import Tricks

if TYPE_CHECKING:
    from cardgen.engine.interpreter.game import DataState

EffectFunction = Callable[["DataState", int, int], None]


class TrickRules:
    """The trick rules of one Game: following, leading, discarding, and winning a trick."""

    __slots__ = ("zone", "won", "players", "suit", "rank", "trump", "lead", "discard", "after")

    def __init__(self, tricks: Tricks, tables: Tables, players: int, after: Sequence[EffectFunction]) -> None:
        self.zone = tables.zone_index[tricks.zone]
        self.won = tables.zone_index[tricks.won]
        self.players = players
        self.suit: list[Any] = tables.field_values[tricks.follow]
        self.rank: list[Any] = [value if isinstance(value, int) else 0 for value in tables.field_values[tricks.rank]]
        self.trump: ExprFunction | None = compile_expression(tricks.trump, tables) if tricks.trump is not None else None
        self.lead: ExprFunction | None = compile_expression(tricks.lead, tables, card=True) if tricks.lead else None
        self.discard: ExprFunction | None = compile_expression(tricks.discard, tables, card=True) if tricks.discard else None
        self.after = tuple(after)

    def playable(self, s: "DataState", seat: int, cards: list[int]) -> list[int]:
        """The cards (distinct designs the option allows) the rules of following let ``seat`` play now."""
        trick = s.z[self.zone]
        if not trick:
            preferred = cards if self.lead is None else [d for d in cards if self.lead(s, seat, d)]
            return preferred or cards
        led = self.suit[trick[0]]
        suit = self.suit
        following = [d for d in cards if suit[d] == led]
        if following:
            return following
        if self.discard is None:
            return cards
        return [d for d in cards if self.discard(s, seat, d)] or cards

    def played(self, s: "DataState", seat: int) -> None:
        """``seat`` has just played to the trick: when every seat has, the winner takes it and leads next."""
        seats = s.trick_seats
        seats.append(seat)
        if len(seats) < self.players:
            return
        trick = s.z[self.zone]
        suit, rank = self.suit, self.rank
        trump = self.trump(s, seats[0], 0) if self.trump is not None else None
        best = 0
        for k in range(1, len(trick)):
            card, top = trick[k], trick[best]
            if suit[card] == suit[top]:
                if rank[card] > rank[top]:
                    best = k
            elif trump is not None and suit[card] == trump:
                best = k  # the first trump on a trick led in another suit (a higher trump is caught above)
        winner = seats[best]
        s.z[self.won + winner].extend(trick)
        trick.clear()
        seats.clear()
        s.tricks_taken += 1
        for effect in self.after:
            effect(s, winner, 0)
        s.lead_next = winner
