"""cardgen as a library: load a spec, validate it, build it, make its game, play, check and solve it.

The command line is a thin layer over these functions; a Python user calls the
same ones (see docs/api.md)::

    import cardgen

    loaded = cardgen.load_checked("ceramus")          # refuses a spec with errors
    game = cardgen.make_game(loaded, players=1)
    result = cardgen.play_game(game, ["greedy"], seed=3)
    report = cardgen.check_spec(loaded, playouts=200)
    deal = cardgen.solve_deal(loaded, seed=0)

Every function takes a game id under ``specs/`` or a spec folder wherever it
takes ``game``. Unreadable input raises :class:`cardgen.findings.InputError`;
a spec with error findings raises :class:`SpecRefused`, which carries them.
The heavy layers are imported by the function that needs them, so importing
cardgen stays cheap.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING

from cardgen.findings import Finding, InputError, Severity

if TYPE_CHECKING:
    from cardgen.artefacts import BuildOptions
    from cardgen.build import GameBuild
    from cardgen.engine.checks import CheckReport
    from cardgen.engine.core import Game
    from cardgen.engine.playout import PlayoutResult
    from cardgen.engine.solving import SolvedDeal
    from cardgen.progress import ProgressHook
    from cardgen.spec.load import LoadedSpec
    from cardgen.validate.registry import CheckKind
    from cardgen.validate.runner import ValidationResult

GameRef = str | Path
"""A game id under ``specs/`` (``"ceramus"``) or the path of a spec folder."""

EVERY_KIND: tuple[CheckKind, ...] = ("static", "render", "i18n", "sim")
"""The kinds of check ``cardgen validate`` runs (``sim`` is the quick simulation)."""


class SpecRefused(Exception):
    """A spec with error findings, refused by :func:`load_checked` before any work was done on it."""

    def __init__(self, folder: Path, findings: list[Finding]) -> None:
        self.folder = folder
        self.findings = findings
        super().__init__(f"{folder}: the spec has {len(findings)} error(s)")


def find_spec(game: GameRef) -> Path:
    """The spec folder of ``game``; InputError when there is none."""
    from cardgen.spec.load import find_spec_folder

    return find_spec_folder(str(game))


def every_spec() -> list[Path]:
    """Every spec folder under ``specs/``, sorted."""
    from cardgen.spec.load import all_spec_folders

    return all_spec_folders()


def load_spec(game: GameRef) -> LoadedSpec:
    """Read and schema-check a spec, without the cross-checks: its findings are in ``.findings``, ``.spec`` is None when it did not load."""
    from cardgen.spec.load import load_spec as load

    return load(find_spec(game))


def validate_spec(game: GameRef, kinds: Iterable[CheckKind] = EVERY_KIND, skip: Iterable[str] = ()) -> ValidationResult:
    """Load a spec and run every registered check of ``kinds`` over it (``skip`` names checks to leave out)."""
    from cardgen.catalogue import validate_folder

    return validate_folder(find_spec(game), list(kinds), skip=skip)


def load_checked(game: GameRef, kinds: Iterable[CheckKind] = ("static",), skip: Iterable[str] = ()) -> LoadedSpec:
    """A validated spec: raises :class:`SpecRefused` (with the error findings) when the checks of ``kinds`` find errors."""
    result = validate_spec(game, kinds, skip)
    errors = [f for f in result.findings if f.severity is Severity.ERROR]
    if errors or result.loaded is None or result.loaded.spec is None:
        raise SpecRefused(result.folder, errors)
    return result.loaded


def build_spec(game: GameRef, out: Path = Path("output"), options: BuildOptions | None = None, *, lock: bool = True) -> GameBuild:
    """Validate a spec and write every artefact under ``out/<game>/`` (nothing when it fails).

    The output folder's lock is held for the build; ``lock=False`` when the
    caller holds it already (``cardgen build`` holds it over all its games,
    taken with :func:`output_lock`).
    """
    from cardgen.artefacts import BuildOptions
    from cardgen.build import build_game

    chosen = options if options is not None else BuildOptions()
    if not lock:
        return build_game(find_spec(game), out, chosen)
    with output_lock(out):
        return build_game(find_spec(game), out, chosen)


def output_lock(out: Path) -> AbstractContextManager[None]:
    """Hold ``out``'s build lock (InputError at once when another build holds it), finishing a publish a killed build left."""
    from cardgen.publish import build_lock

    return build_lock(out)


def make_game(loaded: LoadedSpec, players: int | None = None) -> Game:
    """The rules engine's Game for a loaded spec at ``players`` (default: the fewest it allows); InputError when it cannot be simulated."""
    from cardgen.engine.core import make_game as make, registered_rules

    spec = loaded.spec
    if spec is None:
        raise InputError("the spec did not load, so it cannot be simulated", loaded.file)
    if spec.rules is None:
        raise InputError("the spec names no rules module, so it cannot be simulated", loaded.file)
    if spec.rules_module is not None and spec.rules_module not in registered_rules():
        raise InputError(f"no rules module {spec.rules_module!r} is registered", loaded.file)
    count = players if players is not None else spec.players.min
    if not spec.players.min <= count <= spec.players.max:
        raise InputError(f"{spec.id} plays with {spec.players.min} to {spec.players.max} players, not {count}", loaded.file)
    return make(spec, count)


def play_game(game: Game, agents: Sequence[str], seed: int = 0) -> PlayoutResult:
    """Play one game with agents named as on the command line (``random``, ``greedy``, ``mcts:400``...).

    One name is used for every seat; otherwise one per seat. InputError for a wrong count or an unknown name.
    """
    from cardgen.engine.agents import make_agent
    from cardgen.engine.playout import play_game as play

    names = list(agents)
    if len(names) == 1:
        names = names * game.num_players
    if len(names) != game.num_players:
        raise InputError(f"--agents names {len(names)} agents for {game.num_players} seats")
    try:
        seats = [make_agent(name, game) for name in names]
    except ValueError as error:
        raise InputError(f"--agents: {error}") from None
    return play(game, seats, seed)


def check_spec(
    loaded: LoadedSpec,
    playouts: int | None = None,
    seed: int = 0,
    jobs: int | None = None,
    *,
    players: int | None = None,
    skill_games: int = 12,
    mcts_budget: int = 48,
    replays_dir: Path | None = None,
    progress: ProgressHook | None = None,
) -> CheckReport:
    """Simulate a validated spec: dead ends, timeouts, unreachable cards, balance and the skill ladder (``cardgen check``)."""
    from cardgen.engine.checks import run_checks

    spec = loaded.spec
    if spec is None:
        raise InputError("the spec did not load, so it cannot be simulated", loaded.file)
    if players is not None and not spec.players.min <= players <= spec.players.max:
        raise InputError(f"{spec.id} plays with {spec.players.min} to {spec.players.max} players, not {players}", loaded.file)
    return run_checks(
        loaded, playouts, seed, jobs, players=[players] if players else None,
        skill_games=skill_games, mcts_budget=mcts_budget, replays_dir=replays_dir, progress=progress,
    )


def solve_deal(loaded: LoadedSpec, seed: int = 0, players: int | None = None, game: Game | None = None) -> SolvedDeal:
    """Solve the deal of ``seed`` exactly with the game's registered solver and verify the line it returns.

    ``game`` reuses a Game already made with :func:`make_game`. InputError when
    no solver is registered for the spec's rules or the solver refuses the game.
    """
    from cardgen.engine.core import solver_for
    from cardgen.engine.solving import solve_deal as solve

    built = game if game is not None else make_game(loaded, players)
    assert loaded.spec is not None and loaded.spec.rules is not None  # make_game refused anything else
    from cardgen.engine.mechanics import game_package

    rules_id = game_package(loaded.spec)
    solver = solver_for(rules_id) if rules_id is not None else None
    if solver is None:
        raise InputError(f"no exact solver is registered for {rules_id or 'rules as data'!r}", loaded.file)
    try:
        return solve(built, solver, seed)
    except ValueError as error:
        raise InputError(f"the solver cannot solve this game: {error}", loaded.file) from None
