"""``cardgen bench``: run every benchmark (bench/run.py) and print the one table."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

BENCH_SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "run.py"
"""The benchmark runner; it lives in the source checkout, not in an installed package."""


def bench(
    quick: Annotated[bool, typer.Option("--quick", help="One repetition, no warm-up, short engine runs.")] = False,
    reps: Annotated[Optional[int], typer.Option("--reps", help="Repetitions per figure (default 3).")] = None,
    only: Annotated[str, typer.Option("--only", help="Comma-separated groups: job, decks, startup, build, svg, pdf, rebuild, validate, playouts, copies, check, solve.")] = "",
    out: Annotated[Optional[Path], typer.Option("--out", help="Where to write the JSON results (default bench/results.json).")] = None,
) -> None:
    """Measure build, rendering, engine and validation speed against their targets (never fails on a missed target)."""
    if not BENCH_SCRIPT.is_file():
        typer.echo(f"no benchmark runner at {BENCH_SCRIPT}: run this from a source checkout of cardgen", err=True)
        raise typer.Exit(2)
    args = [sys.executable, str(BENCH_SCRIPT)]
    if quick:
        args.append("--quick")
    if reps is not None:
        args += ["--reps", str(reps)]
    if only:
        args += ["--only", only]
    if out is not None:
        args += ["--out", str(out)]
    raise typer.Exit(subprocess.call(args))


def register(app: typer.Typer) -> None:
    """Add the bench command to the app."""
    app.command("bench")(bench)
