"""Chance steps of rules data, compiled once per Game: dice rolls and cards taken at random.

An effect ``roll: {dice, var}`` or ``steal: {from, to, who}`` does not draw
anything itself: it marks the state as waiting for chance (``current_player()``
is :data:`~cardgen.engine.core.CHANCE`), and the next action is the outcome,
which the simulator samples from :meth:`DataState.chance_outcomes`, a solver may
enumerate and a replay applies as recorded. A roll's outcomes are the dice
totals, each with its exact probability (the number of ways to throw it over
``sides ** count``); a steal's are the card designs in the zone taken from, each
weighted by its copies there.
"""

from __future__ import annotations

from dataclasses import dataclass


def dice_totals(count: int, sides: int) -> list[tuple[int, float]]:
    """Every total ``count`` dice of ``sides`` sides can show, with its exact probability, lowest first."""
    ways = [1]  # ways[t]: the throws of the dice so far that total t
    for _ in range(count):
        longer = [0] * (len(ways) + sides)
        for total, n in enumerate(ways):
            if n:
                for face in range(1, sides + 1):
                    longer[total + face] += n
        ways = longer
    throws = sides**count
    return [(total, n / throws) for total, n in enumerate(ways) if n]


def dice_totals_doubles(count: int, sides: int) -> list[tuple[int, float]]:
    """Every total ``count`` dice can show split by whether all dice show one face, as ``total * 2 + doubles``
    (doubles 1 or 0), with its exact probability; only outcomes that can happen, lowest first."""
    throws = sides**count
    out: list[tuple[int, float]] = []
    for total, probability in dice_totals(count, sides):
        same = 1 if count > 1 and total % count == 0 and 1 <= total // count <= sides else 0
        ways = round(probability * throws)
        if ways - same:
            out.append((total * 2, (ways - same) / throws))
        if same:
            out.append((total * 2 + 1, same / throws))
    return out


@dataclass(frozen=True)
class ChanceStep:
    """One chance effect of the rules data, by its index among the Game's chance steps."""

    index: int
    kind: str
    """``roll`` or ``steal``."""
    name: str
    """The dice's id (a roll) or the zone taken from (a steal), for action names."""
    var: int = -1
    """A roll: the variable the total goes into."""
    totals: tuple[tuple[int, float], ...] = ()
    """A roll: every total with its probability (``total * 2 + doubles`` when the roll records doubles)."""
    doubles: int = -1
    """A roll that records doubles: the variable set to 1 when the dice show one face, else 0 (-1: none)."""

    def outcomes(self, base: int) -> list[tuple[int, float]]:
        """A roll's outcomes as actions: ``base`` (its first action) plus the total."""
        return [(base + total, probability) for total, probability in self.totals]


def card_outcomes(zone: list[int], base: int) -> list[tuple[int, float]]:
    """A card taken at random from ``zone``: every design there, weighted by its copies, as ``base + design``."""
    counts: dict[int, int] = {}
    for design in zone:
        counts[design] = counts.get(design, 0) + 1
    size = len(zone)
    return [(base + design, counts[design] / size) for design in sorted(counts)]
