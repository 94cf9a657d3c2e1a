"""The sweep commands cost nothing until they run: registering them loads neither Dask nor Optuna."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_registering_the_commands_loads_no_sweep_machinery() -> None:
    probe = "import json, sys; import cardgen.cli.app; print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    modules = json.loads(done.stdout)
    assert "cardgen.cli.cmd_sweep" in modules
    heavy = ("cardgen.sweep", "distributed", "dask", "optuna")
    assert [m for m in modules if m.split(".")[0] in heavy or m.startswith("cardgen.sweep")] == []
