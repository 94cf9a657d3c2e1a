"""A data game's position in a few readable words (``DataState.summary``), for playthroughs and logs.

Every zone with its card count (per seat for a per-seat zone), the top card of a pile everyone sees, the cards of
a small open area, the counters and the variables set, then what each named mechanic says of its slice. It reads
the rules data's own names, so a playthrough of any data game reads without a game-specific summary.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardgen.engine.interpreter.state import DataState

OPEN_AREA_LIMIT = 3
"""An open zone with at most this many cards is listed card by card (an offer, a trick); a larger one is counted."""


def per_seat(values: list[str]) -> str:
    """``P1 3, P2 0``: one value per seat."""
    return ", ".join(f"P{seat + 1} {value}" for seat, value in enumerate(values))


def position_summary(state: "DataState") -> str:
    """The zones, counters, variables and mechanic slices of ``state``, separated by semicolons."""
    g = state.g
    rules = g.rules
    names = g.card_names
    players = g.num_players
    parts: list[str] = []
    for name, zone in rules.zones.items():
        base = g.tables.zone_index[name]
        if zone.per_seat:
            parts.append(f"{name} {per_seat([str(len(state.z[base + k])) for k in range(players)])}")
            continue
        cards = state.z[base]
        text = f"{name} {len(cards)}"
        if cards and zone.visibility == "public" and len(cards) <= OPEN_AREA_LIMIT:
            text += f" ({', '.join(names[card] for card in reversed(cards))})"
        elif cards and zone.visibility in ("public", "top") and zone.ordered:
            text += f" (top {names[cards[-1]]})"
        parts.append(text)
    for name, counter in rules.counters.items():
        base = g.tables.counter_index[name]
        if counter.per_seat:
            parts.append(f"{name} {per_seat([str(state.c[base + k]) for k in range(players)])}")
        else:
            parts.append(f"{name} {state.c[base]}")
    for index, name in enumerate(rules.variables):
        value = state.v[index]
        if value is not None:
            parts.append(f"{name} {value}")
    for mechanic, part in zip(g.mechanics, state.m):
        words = mechanic.summary(part)
        if words:
            parts.append(words)
    return "; ".join(parts)
