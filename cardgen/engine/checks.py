"""Solvability and balance checks: many playouts per player count, turned into findings.

For every supported player count :func:`run_checks` deals a game, plays
uniformly random playouts (enough for the seat win-rate interval to reach
``spec.balance.interval_half_width``, capped by ``max_playouts``), plays a
skill ladder (planner against greedy against random, seats rotated) and
reports:

* errors: setups that cannot be dealt, dead ends, timeouts, engine exceptions,
  scores outside the stated bounds, broken conservation, degenerate games
  (every game tied, scores that never vary, no choice ever), and anything in
  ``Game.usage_keys()`` the rules module proves unusable at a player count;
* warnings: a key no game used at a player count without a proof (after a
  targeted search, see :mod:`cardgen.engine.coverage`), seats whose win rates
  differ by more than ``max_seat_gap`` and a planner whose edge over random is
  below ``min_skill_edge``;
* the balance metrics themselves (see :mod:`cardgen.engine.balance`).

Every playout has its own seed (base seed + index), and the amount of work is
set in playouts, never in seconds, so the report depends only on the spec and
the seed: not on the number of worker processes, nor on how busy the machine is.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

from cardgen.engine import core
from cardgen.engine.coverage import CountCoverage, Unused, unused_keys
from cardgen.engine.balance import (
    BalanceMetrics,
    SkillEdge,
    compute_metrics,
    skill_edge_multi,
    skill_edge_solo,
    trials_for_half_width,
    wilson_half_width,
)
from cardgen.engine.codes import CHECK_CODES
from cardgen.engine.parallel import Runner, Task
from cardgen.engine.playout import PlayoutResult
from cardgen.progress import ProgressHook
from cardgen.findings import Finding, Severity
from cardgen.spec.load import LoadedSpec
from cardgen.spec.models import Card
from cardgen.spec.source import PathKey


LADDER: tuple[tuple[str, str], ...] = (("greedy", "random"), ("mcts", "greedy"), ("mcts", "random"))
"""The skill ladder: (stronger, weaker) agent pairs."""

SKILL_SEED_OFFSET = 1_000_000
"""Skill games use seeds base + offset + index, apart from the balance playouts."""


@dataclass
class CountReport:
    """What the checks found at one player count."""

    players: int
    metrics: BalanceMetrics | None = None
    skill: list[SkillEdge] = field(default_factory=list)

    def as_json(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return {
            "players": self.players,
            "metrics": self.metrics.as_json() if self.metrics else None,
            "skill": [s.as_json() for s in self.skill],
        }


@dataclass
class CheckReport:
    """The checks' findings and metrics for one spec."""

    game: str
    file: str
    counts: list[CountReport] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    replays: list[str] = field(default_factory=list)
    """Replay files written for odd games (when a replay folder was given)."""
    seconds: float = 0.0
    """Wall time of the whole check."""

    def has_errors(self) -> bool:
        """Whether any finding is an error."""
        return any(f.severity is Severity.ERROR for f in self.findings)

    @property
    def longest_game(self) -> tuple[int, int, int]:
        """(length, player count, seed) of the longest playout."""
        best = (0, 0, 0)
        for count in self.counts:
            if count.metrics and count.metrics.longest_length > best[0]:
                best = (count.metrics.longest_length, count.players, count.metrics.longest_seed)
        return best

    def as_json(self) -> dict[str, object]:
        """A JSON-ready dict (findings sorted)."""
        return {
            "game": self.game,
            "file": self.file,
            "counts": [c.as_json() for c in self.counts],
            "findings": [f.as_json() for f in sorted(self.findings, key=_finding_order)],
            "replays": list(self.replays),
            "seconds": round(self.seconds, 3),
        }

    def render_text(self) -> str:
        """A readable summary: metrics per player count, then the findings."""
        lines: list[str] = []
        for count in self.counts:
            lines.extend(_render_count(self.game, count))
        length, players, seed = self.longest_game
        if length:
            lines.append(f"longest game: {length} actions ({players} player(s), seed {seed})")
        if self.findings:
            lines.append("")
            lines.extend(f.render() for f in sorted(self.findings, key=_finding_order))
        errors = sum(1 for f in self.findings if f.severity is Severity.ERROR)
        warnings = sum(1 for f in self.findings if f.severity is Severity.WARNING)
        lines.append(f"{self.game}: {errors} error(s), {warnings} warning(s) ({self.seconds:.1f} s)")
        return "\n".join(lines)


def _played(report: CheckReport) -> str:
    random_games = sum(c.metrics.playouts if c.metrics else 0 for c in report.counts)
    skill_games = sum(e.games * (2 if c.players == 1 else 1) for c in report.counts for e in c.skill)
    return f"{random_games} random playouts" + (f" and {skill_games} skill-ladder games" if skill_games else "")


def _finding_order(f: Finding) -> tuple[object, ...]:
    return (f.file, f.line, f.column, f.code, f.path, f.message)


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def _render_count(game: str, count: CountReport) -> list[str]:
    m = count.metrics
    if m is None:
        return [f"{game}, {count.players} player(s): not played"]
    out = [f"{game}, {count.players} player(s): {m.playouts} random playouts, {m.completed} completed"]
    if m.players > 1:
        seats = "  ".join(f"P{s.seat + 1} {s.win_share:.3f} [{s.interval[0]:.3f}, {s.interval[1]:.3f}]" for s in m.seats)
        out.append(f"  win share (95% Wilson): {seats}")
    out.append(
        f"  AdvantageP1 {_pct(m.advantage_p1)}  Balance {_pct(m.balance)}  Completion {m.completion:.3f}  "
        f"Drawishness {m.drawishness:.3f}  tie rate {m.tie_rate:.3f}  Timeouts {m.timeouts}  dead ends {m.dead_ends}  errors {m.errors}"
    )
    out.append(
        f"  DecisionMoves {m.decision_moves:.3f}  BranchingFactor mean {m.branching_mean:.2f} max {m.branching_max}  "
        f"Duration mean {m.duration_mean:.1f} [{m.duration_min}..{m.duration_max}] actions, {m.decisions_mean:.1f} decisions"
    )
    hist = " ".join(f"{lo}-{hi}:{n}" for lo, hi, n in m.duration_histogram)
    out.append(f"  duration histogram: {hist}")
    for s in m.seats:
        out.append(f"  scores P{s.seat + 1}: mean {s.score_mean:.2f} sd {s.score_sd:.2f} [{s.score_min}..{s.score_max}]")
    if m.margin_mean is not None:
        out.append(f"  final margin (1st - 2nd): mean {m.margin_mean:.2f}; " + " ".join(f"{lo}-{hi}:{n}" for lo, hi, n in m.margin_histogram))
    for edge in count.skill:
        out.append(
            f"  skill {edge.strong} vs {edge.weak}: edge {edge.edge:.3f} [{edge.interval[0]:.3f}, {edge.interval[1]:.3f}] over {edge.games} game(s)"
        )
    if m.coverage:
        cov = ", ".join(f"{key} {games}/{m.playouts}" for key, (games, _total) in m.coverage.items())
        out.append(f"  coverage (games used / playouts): {cov}")
    return out


def place_of_key(loaded: LoadedSpec, key: str) -> PathKey:
    """The spec path a usage key ``kind:id`` points at: the card, deck, component, palette entry or number with that id.

    A ``card:`` key looks among cards first, since a card id may equal a deck id
    (Keramikos' Excavation card lives in the excavation deck).
    """
    spec = loaded.spec
    kind, _, ident = key.partition(":")
    if spec is None:
        return ("rules",)
    cards: list[tuple[PathKey, Card]] = [(("decks", d, "cards", c), card) for d, deck in enumerate(spec.decks) for c, card in enumerate(deck.cards)]
    by_card: list[PathKey] = [path for path, card in cards if card.id == ident]
    by_deck: list[PathKey] = [("decks", d) for d, deck in enumerate(spec.decks) if deck.id == ident]
    candidates = (by_card + by_deck) if kind == "card" else (by_deck + by_card)
    candidates += [("components", c) for c, component in enumerate(spec.components) if component.id == ident]
    candidates += [
        ("palettes", p, "entries", e) for p, palette in enumerate(spec.palettes) for e, entry in enumerate(palette.entries) if entry.id == ident
    ]
    candidates += [("numbers", ident)] if ident in spec.numbers else []
    candidates += [path for path, card in cards if card.effect == ident]
    return candidates[0] if candidates else ("rules",)


def _setup_path(loaded: LoadedSpec, players: int) -> PathKey:
    assert loaded.spec is not None
    for index, setup in enumerate(loaded.spec.setups):
        if setup.players == players:
            return ("setups", index)
    return ("players",)


def _repro(game_id: str, players: int, result: PlayoutResult) -> str:
    agents = ",".join(result.agents)
    return f"cardgen play {game_id} --players {players} --agents {agents} --seed {result.seed}"


@dataclass
class _Plan:
    players: int
    balance: list[Task]
    skill: list[tuple[str, str, list[tuple[int, Task]]]]


def _plan(players: int, count: int, seed: int, skill_games: int, mcts_budget: int) -> _Plan:
    balance = [Task(players, ("random",) * players, seed + i) for i in range(count)]
    skill: list[tuple[str, str, list[tuple[int, Task]]]] = []
    for strong, weak in LADDER if skill_games > 0 else ():
        strong_name = f"mcts:{mcts_budget}" if strong == "mcts" else strong
        weak_name = f"mcts:{mcts_budget}" if weak == "mcts" else weak
        games: list[tuple[int, Task]] = []
        for g in range(skill_games):
            game_seed = seed + SKILL_SEED_OFFSET + g
            if players == 1:
                games.append((0, Task(1, (strong_name,), game_seed)))
                games.append((-1, Task(1, (weak_name,), game_seed)))
            else:
                seat = g % players
                names = tuple(strong_name if s == seat else weak_name for s in range(players))
                games.append((seat, Task(players, names, game_seed)))
        skill.append((strong_name, weak_name, games))
    return _Plan(players, balance, skill)


def default_playouts(loaded: LoadedSpec) -> int:
    """Playouts per player count for the seat interval to reach ``interval_half_width`` (worst case p = 0.5), capped."""
    assert loaded.spec is not None
    thresholds = loaded.spec.balance
    return min(thresholds.max_playouts, trials_for_half_width(thresholds.interval_half_width))


def run_checks(
    loaded: LoadedSpec,
    playouts: int | None = None,
    seed: int = 0,
    jobs: int | None = None,
    *,
    players: Sequence[int] | None = None,
    skill_games: int = 12,
    mcts_budget: int = 48,
    replays_dir: Path | None = None,
    progress: ProgressHook | None = None,
    search_unused: bool = True,
) -> CheckReport:
    """Check a loaded spec by simulation and return metrics and findings.

    ``playouts`` random playouts per player count (default: enough for the
    seat interval, see :func:`default_playouts`), seeds ``seed`` onwards;
    ``players`` restricts the player counts; ``skill_games`` games per ladder
    rung (0 skips the ladder); ``jobs`` worker processes (default: every CPU);
    ``replays_dir`` receives replays of odd games; ``progress`` is told how
    many playouts there are and as each one finishes; ``search_unused`` runs
    the targeted search for keys no playout used (see :mod:`.coverage`).
    """
    spec = loaded.spec
    if spec is None:
        raise ValueError("the spec did not load; fix its findings before checking it")
    report = CheckReport(game=spec.id, file=loaded.file)
    findings = report.findings
    if spec.rules is None:
        findings.append(loaded.place_finding("CG500", Severity.INFO, ("rules",), "no rules module is named, so the game is not simulated"))
        return report
    known = core.registered_rules()
    if spec.rules_module is not None and spec.rules_module not in known:
        findings.append(
            loaded.place_finding(
                "CG501", Severity.ERROR, ("rules",), f"no rules module {spec.rules_module!r} is registered (known: {', '.join(known) or 'none'})",
                "name a registered rules id, or add the game package under cardgen/games/",
            )
        )
        return report
    counts = list(players) if players else list(range(spec.players.min, spec.players.max + 1))
    per_count = playouts if playouts is not None else default_playouts(loaded)
    started = time.monotonic()
    coverage: list[CountCoverage] = []
    built: dict[int, core.Game] = {}
    with Runner(spec, loaded.folder, jobs) as runner:

        def save(n: int, result: PlayoutResult) -> str:
            if replays_dir is None:
                return ""
            path = _write_odd_replay(runner, n, result, replays_dir)
            if path:
                report.replays.append(path)
            return f"; replay: {path}" if path else ""

        plans: list[tuple[CountReport, _Plan, core.GameInfo, list[str]]] = []
        for n in counts:
            count_report = CountReport(players=n)
            report.counts.append(count_report)
            try:
                game = runner.game(n)
                game.new_initial_state(seed)
                info = game.info()
                count_keys = game.usage_keys()
            except Exception as error:
                findings.append(
                    loaded.place_finding("CG502", Severity.ERROR, _setup_path(loaded, n), f"cannot set up {n} player(s): {type(error).__name__}: {error}")
                )
                continue
            built[n] = game
            plans.append((count_report, _plan(n, per_count, seed, skill_games, mcts_budget), info, count_keys))
        # One interleaved batch keeps every worker busy.
        tagged: list[tuple[tuple[int, int, int], Task]] = []
        for p, (_, plan, _, _) in enumerate(plans):
            tagged.extend(((i, p, -1), task) for i, task in enumerate(plan.balance))
            for rung, (_, _, games) in enumerate(plan.skill):
                tagged.extend(((len(plan.balance) + i, p, rung), task) for i, (_, task) in enumerate(games))
        tagged.sort(key=lambda item: item[0])
        if progress is not None:
            progress.start(len(tagged), f"{spec.id}: playouts")
        outcomes = runner.run([task for _, task in tagged], None, progress)
        by_plan: dict[tuple[int, int], list[PlayoutResult]] = {}
        for (tag, _), result in zip(tagged, outcomes):
            by_plan.setdefault((tag[1], tag[2]), []).append(result)
        for p, (count_report, plan, info, count_keys) in enumerate(plans):
            n = count_report.players
            results = by_plan.get((p, -1), [])
            count_report.metrics = compute_metrics(results, n, count_keys)
            skill_results: list[PlayoutResult] = []
            for rung, (strong, weak, games) in enumerate(plan.skill):
                played = by_plan.get((p, rung), [])
                skill_results.extend(played)
                if n == 1:
                    count_report.skill.append(skill_edge_solo(strong, weak, list(zip(played[0::2], played[1::2]))))
                else:
                    count_report.skill.append(skill_edge_multi(strong, weak, [(seat, r) for (seat, _), r in zip(games, played)]))
            used = CountCoverage(n, list(count_keys), games=len(results) + len(skill_results))
            for result in results + skill_results:
                for key, uses in result.usage.items():
                    if uses:
                        used.used[key] = used.used.get(key, 0) + uses
            coverage.append(used)
            _result_findings(loaded, n, results + skill_results, info, findings, save)
            _balance_findings(loaded, count_report, findings)
            _degenerate_findings(loaded, count_report, findings)
        findings.extend(_coverage_findings(loaded, unused_keys(built, coverage, seed, search_unused)))
    report.seconds = time.monotonic() - started
    return report


def _result_findings(
    loaded: LoadedSpec, n: int, results: list[PlayoutResult], info: core.GameInfo, findings: list[Finding], save: Callable[[int, PlayoutResult], str]
) -> None:
    assert loaded.spec is not None
    game_id = loaded.spec.id
    where = _setup_path(loaded, n)
    kinds = (
        ("CG503", "dead_end", "reached a dead end (not over, no legal action)", "make sure some action is always legal (in rules data, an `otherwise` option such as a pass), or end the game there (`end.stuck: true`)"),
        ("CG504", "timed_out", f"passed the length bound of {info.max_game_length} actions without ending", "check the end condition, or raise info().max_game_length if it is too low"),
    )
    for code, attr, what, hint in kinds:
        bad = [r for r in results if getattr(r, attr)]
        if bad:
            first = min(bad, key=lambda r: r.seed)
            findings.append(
                loaded.place_finding(
                    code, Severity.ERROR, where,
                    f"{len(bad)} of {len(results)} playouts with {n} player(s) {what}; first at seed {first.seed} after {first.length} actions; reproduce: {_repro(game_id, n, first)}{save(n, first)}",
                    hint,
                )
            )
    crashed = [r for r in results if r.error]
    if crashed:
        first = min(crashed, key=lambda r: r.seed)
        findings.append(
            loaded.place_finding(
                "CG506", Severity.ERROR, ("rules",),
                f"the rules module raised {first.error} in {len(crashed)} of {len(results)} playouts with {n} player(s); first at seed {first.seed} after {first.length} actions; reproduce: {_repro(game_id, n, first)}{save(n, first)}",
            )
        )
    outside = [r for r in results if r.completed and any(not info.min_score <= s <= info.max_score for s in r.scores)]
    if outside:
        first = min(outside, key=lambda r: r.seed)
        findings.append(
            loaded.place_finding(
                "CG507", Severity.ERROR, ("rules",),
                f"scores {first.scores} at seed {first.seed} ({n} player(s)) lie outside the stated bounds [{info.min_score}, {info.max_score}] ({len(outside)} playouts)",
            )
        )
    broken = [r for r in results if r.conservation]
    if broken:
        first = min(broken, key=lambda r: r.seed)
        findings.append(
            loaded.place_finding(
                "CG508", Severity.ERROR, ("rules",),
                f"conservation broken in {len(broken)} playouts with {n} player(s); first at seed {first.seed}: {'; '.join(first.conservation[:3])}{save(n, first)}",
            )
        )


def _balance_findings(loaded: LoadedSpec, count: CountReport, findings: list[Finding]) -> None:
    assert loaded.spec is not None
    thresholds = loaded.spec.balance
    m = count.metrics
    if m is None or m.completed == 0:
        return
    where = _setup_path(loaded, count.players)
    if count.players > 1 and m.balance is not None and 1.0 - m.balance > thresholds.max_seat_gap:
        rates = ", ".join(f"P{s.seat + 1} {s.win_share:.3f}" for s in m.seats)
        findings.append(
            loaded.place_finding(
                "CG509", Severity.WARNING, where,
                f"with {count.players} players the seats' win rates differ by {1.0 - m.balance:.3f} (more than {thresholds.max_seat_gap}): {rates}",
                "consider a catch-up rule or a compensation for later seats",
            )
        )
    for edge in count.skill:
        if edge.strong.startswith("mcts") and edge.weak == "random" and edge.games and edge.edge < thresholds.min_skill_edge:
            findings.append(
                loaded.place_finding(
                    "CG510", Severity.WARNING, where,
                    f"with {count.players} player(s) the planning agent beats random only {edge.edge:.3f} of the time (below {thresholds.min_skill_edge}): skill hardly matters",
                    "give players more meaningful choices",
                )
            )
    if count.players > 1:
        widest = max(wilson_half_width(s.win_share * m.completed, m.completed) for s in m.seats)
        if widest > thresholds.interval_half_width + 1e-9 and m.playouts >= thresholds.max_playouts:
            findings.append(
                loaded.place_finding(
                    "CG511", Severity.INFO, where,
                    f"after {m.playouts} playouts the widest seat interval is +/-{widest:.3f}, wider than {thresholds.interval_half_width}",
                )
            )


def _write_odd_replay(runner: Runner, n: int, result: PlayoutResult, folder: Path) -> str:
    """Write the replay of an odd playout; '' when the engine cannot even replay it."""
    from cardgen.engine.replay import replay_of, write_replay  # only `check --replays` writes replays

    try:
        replay = replay_of(runner.game(n), result)
    except Exception:
        return ""
    kind = result.termination.replace(" ", "-")
    return str(write_replay(replay, folder / f"{n}p-seed{result.seed}-{kind}.jsonl"))


def quick_checks(loaded: LoadedSpec) -> CheckReport:
    """A fast check for ``cardgen validate``: ``spec.balance.quick_playouts`` random playouts per
    player count, in this process, no skill ladder.

    Its size is set in playouts, never in seconds, so a loaded machine gives the same verdict.
    """
    if loaded.spec is None:
        raise ValueError("the spec did not load; fix its findings before checking it")
    return run_checks(loaded, playouts=loaded.spec.balance.quick_playouts, jobs=1, skill_games=0)


def _players_list(counts: list[int]) -> str:
    return ", ".join(str(n) for n in counts) + (" player" if counts == [1] else " players")


def _coverage_findings(loaded: LoadedSpec, unused: list[Unused]) -> list[Finding]:
    """CG505 for each key left unused: an error where proved, a warning where only not observed."""
    out: list[Finding] = []
    for entry in unused:
        place = place_of_key(loaded, entry.key)
        if entry.proved:
            reasons = "; ".join(f"with {n}: {why}" for n, why in sorted(entry.proved.items()))
            out.append(
                loaded.place_finding(
                    "CG505", Severity.ERROR, place,
                    f"{entry.key} can never be used with {_players_list(sorted(entry.proved))} ({reasons})",
                    "change the card or the setup so it can be used, or drop it at that player count",
                )
            )
        if entry.unobserved:
            counts = sorted(entry.unobserved)
            games = ", ".join(f"{entry.games[n]} with {n}" for n in counts)
            out.append(
                loaded.place_finding(
                    "CG505", Severity.WARNING, place,
                    f"{entry.key} was not used with {_players_list(counts)} in any game played ({games}, random and targeted); not proved unusable",
                    "check the card's condition can be met, or play more games with `cardgen check --playouts N`",
                )
            )
    return out


def _degenerate_findings(loaded: LoadedSpec, count: CountReport, findings: list[Finding]) -> None:
    """Errors for games whose outcome does not depend on play: every game tied, scores fixed, no choice."""
    m = count.metrics
    if m is None or m.completed < 2:
        return
    where = _setup_path(loaded, count.players)
    evidence = f"in all {m.completed} completed random playouts with {count.players} player(s)"
    if count.players > 1 and m.tie_rate >= 1.0:
        findings.append(
            loaded.place_finding("CG513", Severity.ERROR, where, f"every game ends with all seats tied for first place ({evidence})", "make scores differ between players")
        )
    if all(s.score_min == s.score_max for s in m.seats):
        fixed = ", ".join(f"P{s.seat + 1} {s.score_min}" for s in m.seats)
        findings.append(
            loaded.place_finding("CG514", Severity.ERROR, where, f"the final scores are always the same ({fixed}) {evidence}", "check that scoring reads what players do")
        )
    if m.decision_moves <= 0.0:
        findings.append(
            loaded.place_finding("CG515", Severity.ERROR, where, f"no seat ever had more than one legal action {evidence}", "give players a choice")
        )
