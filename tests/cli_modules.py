"""Run ``cardgen`` in a fresh interpreter and see which modules it loaded (for the tests of what a run imports).

The test process has imported everything long ago, so only a fresh process tells what a command needs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

RUNNER = textwrap.dedent(
    """
    import json, sys
    modules_file, *args = sys.argv[1:]
    sys.argv = ["cardgen", *args]
    from cardgen.cli.app import main
    code = 0
    try:
        main()
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 0 if stop.code is None else 1
    with open(modules_file, "w", encoding="utf-8") as handle:
        json.dump({"code": code, "modules": sorted(sys.modules)}, handle)
    """
)
"""Runs ``cardgen <argv...>`` through the console entry point, then writes its exit code and the names of every
loaded module as JSON to the file named by its first argument."""


def fresh_env() -> dict[str, str]:
    """The environment of a fresh ``cardgen``: this checkout first on the path, no forced terminal colours."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE"):  # would make rich (rightly) set up a bar
        env.pop(name, None)
    return env


def run_cli_modules(tmp_path: Path, *args: str) -> tuple[int, list[str]]:
    """Run ``cardgen args`` in a fresh interpreter: (exit code, every module it loaded, sorted)."""
    record = tmp_path / "modules.json"
    done = subprocess.run(
        [sys.executable, "-c", RUNNER, str(record), *args],
        cwd=ROOT, env=fresh_env(), capture_output=True, text=True, timeout=300,
    )
    assert record.is_file(), done.stderr
    data = json.loads(record.read_text(encoding="utf-8"))
    return data["code"], data["modules"]
