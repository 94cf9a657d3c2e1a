"""A sweep's records as a table, as JSON, and as figures per varied value.

:func:`render_table` prints one row per variant and player count (the varied
numbers, each seat's win share with its 95% interval, tie rate, game length,
skill gradient, card coverage, findings); :func:`effects` pools the records
for each value of each varied number (the "main effect" of that number: the
mean over the other numbers' values, win shares pooled over every completed
game, so their Wilson interval stays honest); :func:`render_effects` draws
those as one line of bars per figure in the terminal. The SVG charts and the
report page are in :mod:`cardgen.sweep.charts`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from cardgen.engine.balance import wilson_interval
from cardgen.sweep.run import SweepPlan
from cardgen.sweep.work import Record

SPARKS = "▁▂▃▄▅▆▇█"


def _f(value: float | None, digits: int = 3) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def _findings_cell(record: Record) -> str:
    if record["status"] == "refused":
        first = record["findings"][0] if record["findings"] else {}
        return f"refused: {first.get('code', '')} {first.get('message', '')}".strip()
    if record["status"] == "failed":
        return f"failed: {record.get('error', '')}"
    errors = sum(1 for f in record["findings"] if f["severity"] == "error")
    warnings = sum(1 for f in record["findings"] if f["severity"] == "warning")
    codes = sorted({f["code"] for f in record["findings"]})
    return f"{errors} error(s), {warnings} warning(s)" + (f" {' '.join(codes)}" if codes else "")


def table_rows(plan: SweepPlan, records: Sequence[Record]) -> list[list[str]]:
    """The table's cells: a header row, then a row per variant and player count (one for a variant not played)."""
    names = [v.name for v in plan.varies]
    header = names + ["players", "seat win share [95% interval]", "balance", "ties", "length", "skill", "coverage", "findings"]
    rows = [header]
    for record in records:
        values = [str(record["variant"][n]) for n in names]
        if not record["counts"]:
            rows.append(values + ["-", "-", "-", "-", "-", "-", "-", _findings_cell(record)])
            continue
        for count in record["counts"]:
            seats = "  ".join(f"P{s['seat'] + 1} {s['win_share']:.3f} [{s['low']:.3f}, {s['high']:.3f}]" for s in count["seats"])
            coverage = count["coverage"]
            used = sum(1 for v in coverage.values() if v)
            rows.append(values + [
                str(count["players"]), seats, _f(count["balance"]), _f(count["tie_rate"]), f"{count['length_mean']:.1f}",
                _f(count["skill_gradient"]), f"{used}/{len(coverage)}", _findings_cell(record),
            ])
    return rows


def render_table(plan: SweepPlan, records: Sequence[Record]) -> str:
    """The table as aligned text."""
    rows = table_rows(plan, records)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


@dataclass
class Point:
    """The pooled figures of one value of one varied number at one player count."""

    value: int
    variants: int
    completed: int
    seats: list[tuple[float, float, float]] = field(default_factory=list)
    """Per seat: (pooled win share, interval low, interval high)."""
    tie_rate: float = 0.0
    length: float = 0.0
    length_min: int = 0
    length_max: int = 0
    skill: float | None = None
    coverage: float | None = None


@dataclass
class Effect:
    """How the figures move with one varied number at one player count."""

    name: str
    players: int
    points: list[Point]


def effects(plan: SweepPlan, records: Sequence[Record]) -> list[Effect]:
    """For each number varied over two values or more and each player count, the figures pooled per value (refused variants left out)."""
    counts = sorted({c["players"] for r in records for c in r["counts"]})
    out: list[Effect] = []
    for vary in plan.varies:
        if len(vary.values) < 2:
            continue  # a number set to one value is a fixed change, not a dimension
        for players in counts:
            points: list[Point] = []
            for value in vary.values:
                chosen = [c for r in records if r["variant"][vary.name] == value for c in r["counts"] if c["players"] == players]
                done = sum(c["completed"] for c in chosen)
                if not chosen or done == 0:
                    continue
                point = Point(value, len(chosen), done)
                for seat in range(players):
                    wins = sum(c["seats"][seat]["win_share"] * c["completed"] for c in chosen)
                    low, high = wilson_interval(wins, done)
                    point.seats.append((wins / done, low, high))
                point.tie_rate = sum(c["tie_rate"] * c["completed"] for c in chosen) / done
                point.length = sum(c["length_mean"] * c["playouts"] for c in chosen) / max(1, sum(c["playouts"] for c in chosen))
                point.length_min = min(c["length_min"] for c in chosen)
                point.length_max = max(c["length_max"] for c in chosen)
                skills = [c["skill_gradient"] for c in chosen if c["skill_gradient"] is not None]
                point.skill = sum(skills) / len(skills) if skills else None
                shares = [c["coverage_share"] for c in chosen if c["coverage_share"] is not None]
                point.coverage = sum(shares) / len(shares) if shares else None
                points.append(point)
            if points:
                out.append(Effect(vary.name, players, points))
    return out


def _spark(values: Sequence[float | None], low: float, high: float) -> str:
    span = high - low
    out = []
    for v in values:
        if v is None:
            out.append(" ")
        else:
            level = 0 if span <= 0 else round((v - low) / span * (len(SPARKS) - 1))
            out.append(SPARKS[max(0, min(len(SPARKS) - 1, level))])
    return "".join(out)


def render_effects(found: Sequence[Effect]) -> str:
    """Each figure against each varied number, as a row of bars in the terminal, with its first and last value."""
    lines: list[str] = []
    for effect in found:
        values = [p.value for p in effect.points]
        lines.append(f"{effect.name} = {values[0]}..{values[-1]} ({len(values)} values), {effect.players} player(s):")
        series: list[tuple[str, list[float | None], float, float]] = []
        for seat in range(effect.players):
            series.append((f"P{seat + 1} win share", [p.seats[seat][0] for p in effect.points], 0.0, 1.0))
        series.append(("tie rate", [p.tie_rate for p in effect.points], 0.0, 1.0))
        lengths = [p.length for p in effect.points]
        series.append(("game length", list(lengths), min(lengths), max(lengths)))
        series.append(("skill gradient", [p.skill for p in effect.points], 0.0, 1.0))
        series.append(("card coverage", [p.coverage for p in effect.points], 0.0, 1.0))
        for label, data, low, high in series:
            shown = [v for v in data if v is not None]
            if not shown:
                continue
            digits = 1 if label == "game length" else 3
            lines.append(f"  {label:<15} {_spark(data, low, high)}  {_f(shown[0], digits)} .. {_f(shown[-1], digits)}")
    return "\n".join(lines)


def sweep_json(plan: SweepPlan, records: Sequence[Record]) -> dict[str, object]:
    """The whole sweep as JSON: the results file's header, then every record in grid order."""
    return {**plan.header(), "variants": list(records)}
