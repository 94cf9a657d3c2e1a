"""Mausoleum Guardians and Ceramus from their rules data against their former hand-written engines, side by side.

Run from the project root::

    python bench/interpreter_mausoleum.py [--seconds 2] [--rounds 3] [--games mausoleum-guardians,ceramus]

Each shipped game is played by the rules-data interpreter (Ceramus with its named mechanic ``ceramus_mural``);
the engine each shipped with is kept as the reference in ``tests/reference/`` (``mausoleum_guardians.py``,
``ceramus.py``). For every player count this plays random games
from the same seeds on both, through the Game/State API (the path ``cardgen check`` takes), each game
ending with its conservation check (every card in one place, scores matching the position), in
interleaved rounds of ``--seconds`` CPU seconds each, and prints playouts per CPU second for both and
their ratio (the target: the interpreter at least half the hand-written speed). The load average is
printed before and after (``/proc/loadavg``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from cardgen.engine.core import Game, make_game  # noqa: E402
from cardgen.spec.load import load_spec  # noqa: E402
from reference.ceramus import CeramusGame  # noqa: E402
from reference.mausoleum_guardians import MausoleumGame  # noqa: E402

REFERENCES: dict[str, Callable[..., Game]] = {"mausoleum-guardians": MausoleumGame, "ceramus": CeramusGame}
"""Each benched game's spec id and its former hand-written engine."""


def playouts(game: Game, seconds: float, first_seed: int) -> tuple[int, float]:
    """Random games from ``first_seed`` on, for about ``seconds`` of CPU: (games, CPU seconds)."""
    start, seed = time.process_time(), first_seed
    while time.process_time() - start < seconds:
        state, rng = game.new_initial_state(seed), random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        errors = state.conservation_errors()
        assert not errors, errors
        seed += 1
    return seed - first_seed, time.process_time() - start


def loadavg() -> str:
    return Path("/proc/loadavg").read_text(encoding="utf-8").strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", default=",".join(REFERENCES), help="comma-separated spec ids: " + ", ".join(REFERENCES))
    args = parser.parse_args()
    print(f"/proc/loadavg before: {loadavg()}")
    print("game                 players  interpreter playouts/CPU s  reference playouts/CPU s  ratio")
    for game_id in args.games.split(","):
        bench_game(game_id, args.seconds, args.rounds)
    print(f"/proc/loadavg after: {loadavg()}")


def bench_game(game_id: str, seconds: float, rounds: int) -> None:
    """One row per player count of ``game_id``: both engines in interleaved rounds."""
    loaded = load_spec(ROOT / "specs" / game_id)
    assert loaded.spec is not None
    spec = loaded.spec
    reference = REFERENCES[game_id]
    for players in range(spec.players.min, spec.players.max + 1):
        engines: dict[str, Callable[[], Game]] = {
            "interpreter": lambda: make_game(spec, players),
            "reference": lambda: reference(spec, players),
        }
        games = {name: make() for name, make in engines.items()}
        totals = {name: [0, 0.0] for name in games}
        for round_ in range(rounds):
            order = list(games) if round_ % 2 == 0 else list(games)[::-1]
            for name in order:
                played, cpu = playouts(games[name], seconds, round_ * 100_000)
                totals[name][0] += played
                totals[name][1] += cpu
        rate = {name: played / cpu for name, (played, cpu) in totals.items()}
        print(
            f"{game_id:20s} {players:7d}  {rate['interpreter']:28.0f}  {rate['reference']:24.0f}  "
            f"{rate['interpreter'] / rate['reference']:5.2f}"
        )


if __name__ == "__main__":
    main()
