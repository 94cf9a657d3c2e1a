"""How long cardgen takes to refuse hostile or absurd input: the figures the reliability tests used to assert.

Run from the repository root::

    python bench/hostile_bench.py [--reps 5]

Each case reads or validates one input the way the tests in
``tests/reliability/test_hostile_inputs.py`` and ``tests/spec/test_yaml_semantics.py``
do (the tests check what is reported; this measures how fast), and prints the
median, min and max wall time over ``--reps`` runs with the load average
before and after. The old ceilings in those tests are printed beside each
figure as the target.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cardgen.findings import InputError  # noqa: E402
from cardgen.limits import MAX_DEPTH, MAX_FILE_BYTES, MAX_NODES  # noqa: E402
from cardgen.spec.load import load_spec  # noqa: E402
from cardgen.spec.yaml_load import _parse_yaml, load_yaml  # noqa: E402
from cardgen.catalogue import validate_folder  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures"
MINIMAL = FIXTURES / "valid" / "minimal"


def _expect_refusal(run: Callable[[], object]) -> None:
    try:
        run()
    except InputError:
        return
    raise SystemExit("a hostile input was accepted: the reliability tests should be failing too")


def _cases(work: Path) -> list[tuple[str, float, Callable[[], object]]]:
    """(name, target seconds, what to time) for every case."""
    flow = work / "flow.yaml"
    flow.write_text("spec_version: 1\nnumbers: " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    loop = work / "loop.yaml"
    loop.write_text("spec_version: 1\nloop: &me [1, *me]\n", encoding="utf-8")
    big = work / "big"
    shutil.copytree(MINIMAL, big)
    with (big / "game.yaml").open("a", encoding="utf-8") as handle:
        handle.write("# padding\n" * (MAX_FILE_BYTES // 10 + 1))
    absurd = work / "absurd"
    shutil.copytree(MINIMAL, absurd)
    text = (absurd / "game.yaml").read_text(encoding="utf-8")
    (absurd / "game.yaml").write_text(text.replace("players: {min: 1, max: 2}", "players: {min: 1, max: 1000000000}", 1), encoding="utf-8")
    return [
        ("alias bomb refused", 10.0, lambda: _expect_refusal(lambda: load_spec(FIXTURES / "hostile" / "alias-bomb"))),
        ("self-referencing alias read", 2.0, lambda: load_yaml(loop, "loop.yaml")),
        ("file over the byte limit refused", 2.0, lambda: _expect_refusal(lambda: validate_folder(big, kinds=("static",)))),
        ("5,000 flow brackets refused", 1.0, lambda: _expect_refusal(lambda: load_yaml(flow, "flow.yaml"))),
        ("100,000 block levels refused", 5.0, lambda: _expect_refusal(lambda: _parse_yaml("- " * 100_000 + "x\n", "x.yaml", MAX_NODES, MAX_DEPTH))),
        ("a billion players validated", 5.0, lambda: validate_folder(absurd, kinds=("static",))),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for name, target, run in _cases(Path(folder)):
            run()  # warm-up, not counted
            load_before = os.getloadavg()[0]
            times = []
            for _ in range(args.reps):
                started = time.perf_counter()
                run()
                times.append(time.perf_counter() - started)
            load_after = os.getloadavg()[0]
            print(
                f"{name:<36} median {statistics.median(times) * 1000:8.1f} ms  min {min(times) * 1000:8.1f}  max {max(times) * 1000:8.1f}"
                f"  (target < {target:g} s; load {load_before:.2f} -> {load_after:.2f})"
            )


if __name__ == "__main__":
    main()
