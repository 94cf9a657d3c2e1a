"""The rules-data interpreter against a hand-written engine of the same game, side by side.

Run from the project root::

    python bench/interpreter.py [--seconds 3] [--rounds 5]

For each game that has a hand-written reference implementation in ``tests/reference/``
(Crazy Eights; Ceratopsians, whose rules data uses its named mechanic), it plays uniformly random games from the same seeds with the
interpreter (on the Game/State API, the path ``cardgen check`` takes, conservation check
included) and with the reference, in interleaved rounds of ``--seconds`` each, and prints
games per CPU second for both and their ratio (the target: the interpreter at least half
the hand-written speed). The reference plays the same game on plain lists with readable
moves; it has no conservation check, so the ratio is conservative. The load average is
read before and after.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from cardgen.engine.core import make_game  # noqa: E402
from cardgen.spec.load import load_spec  # noqa: E402
from reference.ceratopsians import CeratopsiansGame  # noqa: E402
from reference.crazy_eights import CrazyEights  # noqa: E402


def interpreter_games(spec, players: int, seconds: float, first_seed: int) -> tuple[int, float]:  # type: ignore[no-untyped-def]
    game = make_game(spec, players)
    start, seed = time.process_time(), first_seed
    while time.process_time() - start < seconds:
        state, rng = game.new_initial_state(seed), random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        assert not state.conservation_errors()
        seed += 1
    return seed - first_seed, time.process_time() - start


def reference_games(spec, players: int, seconds: float, first_seed: int) -> tuple[int, float]:  # type: ignore[no-untyped-def]
    start, seed = time.process_time(), first_seed
    while time.process_time() - start < seconds:
        game, rng = CrazyEights(spec, players, seed), random.Random(seed)
        while not game.over:
            game.apply(rng.choice(game.legal()))
        seed += 1
    return seed - first_seed, time.process_time() - start


def ceratopsians_reference_games(spec, players: int, seconds: float, first_seed: int) -> tuple[int, float]:  # type: ignore[no-untyped-def]
    """The former rules module on the Game/State API, with its conservation check (as the interpreter's side)."""
    game = CeratopsiansGame(spec, players)
    start, seed = time.process_time(), first_seed
    while time.process_time() - start < seconds:
        state, rng = game.new_initial_state(seed), random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        assert not state.conservation_errors()
        seed += 1
    return seed - first_seed, time.process_time() - start


REFERENCES = {"crazy-eights": reference_games, "ceratopsians": ceratopsians_reference_games}
"""Each game with a reference engine, and how it plays random games."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--game", choices=sorted(REFERENCES), action="append", help="only these games (default: all)")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("game          players  interpreter games/CPU s  reference games/CPU s  ratio")
    for game_id, reference in REFERENCES.items():
        if args.game and game_id not in args.game:
            continue
        loaded = load_spec(ROOT / "specs" / game_id)
        assert loaded.spec is not None
        spec = loaded.spec
        for players in range(spec.players.min, spec.players.max + 1):
            totals = {"interpreter": [0, 0.0], "reference": [0, 0.0]}
            for round_ in range(args.rounds):
                for name, run in (("interpreter", interpreter_games), ("reference", reference))[:: 1 if round_ % 2 == 0 else -1]:
                    games, cpu = run(spec, players, args.seconds, round_ * 100_000)
                    totals[name][0] += games
                    totals[name][1] += cpu
            rate = {name: games / cpu for name, (games, cpu) in totals.items()}
            print(f"{game_id:13s} {players:8d}  {rate['interpreter']:23.0f}  {rate['reference']:21.0f}  {rate['interpreter'] / rate['reference']:5.2f}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
