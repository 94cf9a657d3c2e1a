"""The figures a balance report shows, gathered once and kept as plain data.

:func:`gather` runs the engine's checks (:func:`cardgen.engine.checks.run_checks`)
and, when the game has an exact solver, solves a few deals per player count.
The result, a :class:`ReportData`, is what ``report.json`` holds and what every
chart is drawn from. Nothing in it depends on the wall clock or the number of
worker processes, so the same seed gives the same data.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cardgen.engine import core
from cardgen.engine.checks import CHECK_CODES, CheckReport, run_checks
from cardgen.findings import Finding, Severity
from cardgen.progress import ProgressHook
from cardgen.spec.load import LoadedSpec

REPORT_VERSION = 1
"""The version of the ``report.json`` layout."""

LOW_COVERAGE = 0.10
"""A card, pattern or set used in fewer than this share of playouts is highlighted as rarely used."""


@dataclass(frozen=True)
class CheckGroup:
    """One line of the summary box: a question the checks answer and the finding codes that answer it."""

    key: str
    label: str
    codes: tuple[str, ...]


CHECK_GROUPS: tuple[CheckGroup, ...] = (
    CheckGroup("deals", "Deals: every player count can be set up", ("CG501", "CG502")),
    CheckGroup("ends", "Ends: every game finishes within its length bound", ("CG504",)),
    CheckGroup("dead-ends", "Dead ends: a player always has a legal action", ("CG503",)),
    CheckGroup("reachability", "Reachability: every card, pattern and set gets used", ("CG505",)),
    CheckGroup("balance", "Balance: seats are fair and skill matters", ("CG509", "CG510", "CG511")),
    CheckGroup("decisions", "Decisions: what players do changes the outcome", ("CG513", "CG514", "CG515")),
    CheckGroup("integrity", "Integrity: no crash, scores in bounds, pieces conserved", ("CG506", "CG507", "CG508")),
)
"""The summary box's rows, in order. A code listed in no group is shown under integrity."""

PASS, WARN, FAIL, NOT_RUN = "pass", "warn", "fail", "not run"


@dataclass
class Verdict:
    """The outcome of one :class:`CheckGroup`."""

    key: str
    label: str
    status: str
    """``pass``, ``warn``, ``fail`` or ``not run``."""
    codes: list[str]
    """The finding codes behind the status, sorted, each once."""

    def as_json(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return {"key": self.key, "label": self.label, "status": self.status, "codes": list(self.codes)}


@dataclass
class SolvedDeal:
    """One deal the exact solver solved."""

    seed: int
    value: float
    proved: bool
    nodes: int

    def as_json(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return {"seed": self.seed, "value": self.value, "proved": self.proved, "nodes": self.nodes}


@dataclass
class SolverResult:
    """The exact solver's answers at one player count (or why there are none)."""

    players: int
    detail: str = ""
    """What a value measures, as the solver states it."""
    deals: list[SolvedDeal] = field(default_factory=list)
    note: str = ""
    """Why the solver gave no answer, when it did not."""

    def distribution(self) -> list[tuple[float, int]]:
        """(value, number of deals) for every value reached, ascending."""
        counts: dict[float, int] = {}
        for deal in self.deals:
            counts[deal.value] = counts.get(deal.value, 0) + 1
        return sorted(counts.items())

    def as_json(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return {
            "players": self.players,
            "detail": self.detail,
            "deals": [d.as_json() for d in self.deals],
            "distribution": [[value, n] for value, n in self.distribution()],
            "note": self.note,
        }


@dataclass
class ReportData:
    """Everything a balance report shows."""

    game: str
    title: str
    version: str
    seed: int
    playouts: int | None
    """Random playouts per player count that were asked for (None: the checks' default)."""
    skill_games: int
    mcts_budget: int
    solve_deals: int
    check: CheckReport
    verdicts: list[Verdict]
    solver: list[SolverResult]
    thresholds: dict[str, float]
    """The spec's balance thresholds (``balance:``), for reference lines."""

    @property
    def findings(self) -> list[Finding]:
        """The checks' findings, errors first, then in file order."""
        return sorted(self.check.findings, key=lambda f: (-int(f.severity), f.file, f.line, f.column, f.code, f.path, f.message))

    def has_errors(self) -> bool:
        """Whether any finding is an error."""
        return self.check.has_errors()

    def severity_counts(self) -> dict[str, int]:
        """How many findings of each severity there are."""
        out = {"error": 0, "warning": 0, "info": 0}
        for f in self.check.findings:
            out[f.severity.label] += 1
        return out

    def as_json(self) -> dict[str, object]:
        """The content of ``report.json``: deterministic, no timings."""
        check = self.check.as_json()
        check.pop("seconds", None)
        check.pop("replays", None)
        length, players, seed = self.check.longest_game
        return {
            "report_version": REPORT_VERSION,
            "game": self.game,
            "title": self.title,
            "version": self.version,
            "file": self.check.file,
            "parameters": {
                "seed": self.seed,
                "playouts": self.playouts,
                "skill_games": self.skill_games,
                "mcts_budget": self.mcts_budget,
                "solve_deals": self.solve_deals,
            },
            "thresholds": dict(self.thresholds),
            "summary": {
                "verdicts": [v.as_json() for v in self.verdicts],
                "findings": self.severity_counts(),
                "longest_game": {"length": length, "players": players, "seed": seed},
            },
            "counts": check["counts"],
            "solver": [s.as_json() for s in self.solver],
            "findings": [f.as_json() for f in self.findings],
            "codes": {code: CHECK_CODES[code] for code in sorted({f.code for f in self.check.findings}) if code in CHECK_CODES},
        }


def verdicts_for(findings: list[Finding], simulated: bool) -> list[Verdict]:
    """The summary box's rows from the findings; every row is ``not run`` when the game was not simulated."""
    grouped = {code for group in CHECK_GROUPS for code in group.codes}
    out: list[Verdict] = []
    for group in CHECK_GROUPS:
        mine = [f for f in findings if f.code in group.codes or (group.key == "integrity" and f.code not in grouped)]
        worst = max((f.severity for f in mine), default=None)
        if not simulated:
            status = NOT_RUN
        elif worst is Severity.ERROR:
            status = FAIL
        elif worst is Severity.WARNING:
            status = WARN
        else:
            status = PASS
        out.append(Verdict(group.key, group.label, status, sorted({f.code for f in mine})))
    return out


def solve_deals(loaded: LoadedSpec, players: list[int], deals: int, seed: int, progress: ProgressHook | None = None) -> list[SolverResult]:
    """Solve ``deals`` deals (seeds ``seed`` onwards) at each player count with the game's exact solver.

    A player count the solver refuses (it raises ValueError, e.g. a solo-only
    solver at two players) gets a note instead of values. Empty when the game
    has no solver or ``deals`` is 0.
    """
    spec = loaded.spec
    from cardgen.engine.mechanics import game_package

    package = game_package(spec) if spec is not None else None
    if spec is None or package is None or deals <= 0:
        return []
    solver = core.solver_for(package)
    if solver is None:
        return []
    out: list[SolverResult] = []
    if progress is not None:
        progress.start(deals * len(players), f"{spec.id}: solving deals")
    for n in players:
        result = SolverResult(players=n)
        out.append(result)
        try:
            game = core.make_game(spec, n)
        except Exception as error:
            result.note = f"the game cannot be set up: {type(error).__name__}: {error}"
            continue
        for deal in range(seed, seed + deals):
            try:
                solution = solver(game, deal)
            except ValueError as error:
                result.note = f"the solver does not handle {n} player(s): {error}"
                break
            except Exception as error:
                result.note = f"the solver failed on seed {deal}: {type(error).__name__}: {error}"
                break
            result.detail = solution.detail
            result.deals.append(SolvedDeal(deal, float(solution.value), bool(solution.proved), int(solution.nodes)))
            if progress is not None:
                progress.advance()
    return out


def gather(
    loaded: LoadedSpec,
    playouts: int | None = None,
    seed: int = 0,
    jobs: int | None = None,
    *,
    skill_games: int = 12,
    mcts_budget: int = 48,
    solve: int = 5,
    progress: ProgressHook | None = None,
) -> ReportData:
    """Run the checks (and the solver on ``solve`` deals per player count) and collect the report's data.

    ``progress`` (optional) is told how the playouts, then the solving, advance.
    """
    spec = loaded.spec
    if spec is None:
        raise ValueError("the spec did not load; fix its findings before reporting on it")
    check = run_checks(loaded, playouts, seed, jobs, skill_games=skill_games, mcts_budget=mcts_budget, progress=progress)
    simulated = spec.rules is not None and not any(f.code == "CG501" for f in check.findings)
    counts = [c.players for c in check.counts]
    solver = solve_deals(loaded, counts, solve, seed, progress) if simulated else []
    thresholds = spec.balance.model_dump()
    return ReportData(
        game=spec.id,
        title=spec.title.get(spec.locales[0]) or next(iter(spec.title.values()), spec.id),
        version=spec.version,
        seed=seed,
        playouts=playouts,
        skill_games=skill_games,
        mcts_budget=mcts_budget,
        solve_deals=solve,
        check=check,
        verdicts=verdicts_for(check.findings, simulated),
        solver=solver,
        thresholds={k: float(v) for k, v in sorted(thresholds.items())},
    )
