"""Crazy Eights in cardgen's rules data against OpenSpiel's ``crazy_eights``, by their random-play figures.

Run from the project root (OpenSpiel is not one of cardgen's dependencies; install it beside them)::

    pip install open_spiel
    python bench/openspiel_crazy_eights.py [--games 4000] [--record]

``tests/fixtures/crazy-eights-openspiel`` is Crazy Eights written in the rules vocabulary as OpenSpiel plays
it without special cards (up to five draws a turn, a pass after them or once the stock is empty, a first
card that is never an eight, an end after a hundred plays or after every player and one more passed in a
row with the stock empty). Both sides play uniformly random games at every player count the fixture allows;
every figure is worked out from the sequence of decisions alone, the same way for both (so neither side's
own bookkeeping is trusted): decisions per game, card plays, draws, passes, and how games end (a hand
emptied, the play limit, passes). The table gives each mean with its 95% interval and the difference in
standard errors. Two independent models of one rule set should agree within sampling noise.

``--record`` writes OpenSpiel's figures to ``tests/fixtures/crazy-eights-openspiel/openspiel-figures.json``,
which ``tests/engine/test_openspiel_crazy_eights.py`` compares cardgen's random play with (so the suit runs
without OpenSpiel).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from pathlib import Path
from statistics import fmean, pstdev
from typing import Any, Iterable

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "crazy-eights-openspiel"
FIGURES = FIXTURE / "openspiel-figures.json"

DECK = 52
DRAW, PASS = 52, 53  # OpenSpiel's action numbers for a draw and a pass; 54-57 name a suit
MAX_PLAYS = 100
METRICS = ("decisions", "plays", "draws", "passes", "hand", "limit", "stuck")
"""Per game: decisions, card plays, draws, passes; and how it ended (1 or 0): a hand emptied, the play limit, passes."""


def figures_of_moves(moves: Iterable[tuple[int, str]], players: int) -> dict[str, int]:
    """One game's figures from its decisions alone: (seat, kind) with kind one of play, draw, pass, suit."""
    dealt = 7 if players == 2 else 5
    held = [dealt] * players
    out = {"decisions": 0, "plays": 0, "draws": 0, "passes": 0}
    emptied = False
    for seat, kind in moves:
        out["decisions"] += 1
        if kind == "play":
            out["plays"] += 1
            held[seat] -= 1
            emptied = emptied or held[seat] == 0
        elif kind == "draw":
            out["draws"] += 1
            held[seat] += 1
        elif kind == "pass":
            out["passes"] += 1
    hand = int(emptied)
    limit = int(not hand and out["plays"] >= MAX_PLAYS)
    return out | {"hand": hand, "limit": limit, "stuck": int(not hand and not limit)}


def cardgen_game(game: Any, seed: int) -> dict[str, int]:
    """One uniformly random game of the fixture on cardgen's interpreter (the path ``cardgen check`` takes)."""
    state, rng, moves = game.new_initial_state(seed), random.Random(seed), []
    while not state.is_terminal():
        seat, action = state.current_player(), rng.choice(state.legal_actions())
        said = state.action_to_string(action)
        kind = "play" if "play a card" in said else "draw" if "draw a card" in said else "pass" if said.endswith(" pass") else "suit"
        moves.append((seat, kind))
        state.apply_action(action)
    assert not state.conservation_errors()
    return figures_of_moves(moves, game.num_players)


def openspiel_game(game: Any, rng: random.Random) -> dict[str, int]:
    """One uniformly random game of OpenSpiel's ``crazy_eights`` (chance sampled with its own probabilities)."""
    state, moves = game.new_initial_state(), []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, weights)[0])
            continue
        seat, action = state.current_player(), rng.choice(state.legal_actions())
        kind = "play" if action < DECK else "draw" if action == DRAW else "pass" if action == PASS else "suit"
        moves.append((seat, kind))
        state.apply_action(action)
    return figures_of_moves(moves, game.num_players())


def summarise(games: list[dict[str, int]]) -> dict[str, dict[str, float]]:
    """Mean, standard deviation and count of every metric."""
    return {m: {"mean": fmean(g[m] for g in games), "sd": pstdev([g[m] for g in games]), "n": len(games)} for m in METRICS}


def difference_in_errors(a: dict[str, float], b: dict[str, float]) -> float:
    """How many standard errors of the difference apart two means are (0 when both have no spread)."""
    error = math.sqrt(a["sd"] ** 2 / a["n"] + b["sd"] ** 2 / b["n"])
    return 0.0 if error == 0 else (a["mean"] - b["mean"]) / error


def interval(a: dict[str, float]) -> str:
    half = 1.96 * a["sd"] / math.sqrt(a["n"])
    return f"{a['mean']:7.2f} ±{half:5.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=4000, help="games per side and player count")
    parser.add_argument("--record", action="store_true", help=f"write OpenSpiel's figures to {FIGURES.relative_to(ROOT)}")
    args = parser.parse_args(argv)
    try:
        import pyspiel
    except ImportError:
        print("OpenSpiel is not installed here: `pip install open_spiel` beside cardgen, then run this again.")
        return 2
    from cardgen.api import load_spec, make_game

    loaded = load_spec(FIXTURE)
    spec = loaded.spec
    assert spec is not None
    counts = range(spec.players.min, spec.players.max + 1)
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    from importlib.metadata import version

    recorded: dict[str, Any] = {"openspiel": f"open_spiel {version('open_spiel')}, crazy_eights defaults", "games": args.games, "figures": {}}
    for players in counts:
        start = time.process_time()
        ours = summarise([cardgen_game(make_game(loaded, players), seed) for seed in range(args.games)])
        ours_cpu = time.process_time() - start
        game, rng = pyspiel.load_game("crazy_eights", {"players": players}), random.Random(players)
        start = time.process_time()
        theirs = summarise([openspiel_game(game, rng) for _ in range(args.games)])
        theirs_cpu = time.process_time() - start
        recorded["figures"][str(players)] = theirs
        print(f"\n{players} players, {args.games} random games each (CPU: cardgen {ours_cpu:.1f} s, OpenSpiel {theirs_cpu:.1f} s)")
        print(f"  {'figure':<10} {'cardgen':>15} {'OpenSpiel':>15} {'diff/SE':>8}")
        for metric in METRICS:
            print(f"  {metric:<10} {interval(ours[metric]):>15} {interval(theirs[metric]):>15} {difference_in_errors(ours[metric], theirs[metric]):8.2f}")
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")
    if args.record:
        FIGURES.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
        print(f"wrote {FIGURES.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
