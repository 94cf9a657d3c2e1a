"""Games written as rules data against their hand-written engines, side by side: Mausoleum Guardians, Ceramus and Keramikos.

Run from the project root::

    python bench/interpreter_mausoleum.py [--seconds 2] [--rounds 3] [--games mausoleum-guardians,ceramus,keramikos]

Mausoleum Guardians, Ceramus (with its named mechanic ``ceramus_mural``) and Keramikos are played by the
rules-data interpreter from their shipped specs; the engines they shipped with are kept as the references in
``tests/reference/`` (``mausoleum_guardians.py``, ``ceramus.py``, ``keramikos.py``).
For every player count this plays random games
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
from cardgen.spec.models import Spec  # noqa: E402
from reference.ceramus import CeramusGame  # noqa: E402
from reference.keramikos import KeramikosGame  # noqa: E402
from reference.mausoleum_guardians import MausoleumGame  # noqa: E402

CASES: dict[str, tuple[Path, Path, Callable[[Spec, int], Game]]] = {
    "mausoleum-guardians": (ROOT / "specs" / "mausoleum-guardians", ROOT / "specs" / "mausoleum-guardians", MausoleumGame),
    "ceramus": (ROOT / "specs" / "ceramus", ROOT / "specs" / "ceramus", CeramusGame),
    "keramikos": (ROOT / "specs" / "keramikos", ROOT / "specs" / "keramikos", KeramikosGame),
}
"""Game -> (the spec the interpreter plays, the spec the hand-written engine reads, the hand-written engine)."""


def _spec(folder: Path) -> Spec:
    loaded = load_spec(folder)
    assert loaded.spec is not None, [finding.render() for finding in loaded.findings]
    return loaded.spec


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
    parser.add_argument("--games", default=",".join(CASES), help="comma-separated: " + ", ".join(CASES))
    args = parser.parse_args()
    print(f"/proc/loadavg before: {loadavg()}")
    print("game                 players  interpreter playouts/CPU s  reference playouts/CPU s  ratio")
    for game_id in args.games.split(","):
        data_folder, reference_folder, reference_game = CASES[game_id]
        data_spec, reference_spec = _spec(data_folder), _spec(reference_folder)
        for players in range(data_spec.players.min, data_spec.players.max + 1):
            engines: dict[str, Callable[[], Game]] = {
                "interpreter": lambda: make_game(data_spec, players),
                "reference": lambda: reference_game(reference_spec, players),
            }
            games = {name: make() for name, make in engines.items()}
            totals = {name: [0, 0.0] for name in games}
            for round_ in range(args.rounds):
                order = list(games) if round_ % 2 == 0 else list(games)[::-1]
                for name in order:
                    played, cpu = playouts(games[name], args.seconds, round_ * 100_000)
                    totals[name][0] += played
                    totals[name][1] += cpu
            rate = {name: played / cpu for name, (played, cpu) in totals.items()}
            print(f"{game_id:20s} {players:7d}  {rate['interpreter']:28.0f}  {rate['reference']:24.0f}  {rate['interpreter'] / rate['reference']:5.2f}")
    print(f"/proc/loadavg after: {loadavg()}")


if __name__ == "__main__":
    main()
