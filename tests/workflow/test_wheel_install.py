"""A wheel carries everything cardgen reads: installed into a fresh environment, outside the checkout, it scaffolds,
validates and builds a game (templates, catalogs and schema come from inside the package)."""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(args: list[str], cwd: Path, env: dict[str, str] | None = None, timeout: int = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def test_a_wheel_installed_elsewhere_scaffolds_validates_and_builds(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    built = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--disable-pip-version-check", "-w", str(wheels), str(ROOT)], tmp_path)
    assert built.returncode == 0, built.stderr[-2000:]
    wheel = next(wheels.glob("cardgen-*.whl"))
    env_dir = tmp_path / "env"
    venv.create(env_dir, system_site_packages=True, with_pip=True)  # the dependencies come from this environment
    python = env_dir / "bin" / "python"
    installed = _run([str(python), "-m", "pip", "install", "--no-deps", "--ignore-installed", "--quiet", "--disable-pip-version-check", str(wheel)], tmp_path)
    assert installed.returncode == 0, installed.stderr[-2000:]
    work = tmp_path / "elsewhere"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    where = _run([str(python), "-c", "import cardgen, cardgen.resources as r; print(cardgen.__file__); print(r.IN_CHECKOUT, r.TEMPLATES)"], work, env)
    assert where.returncode == 0, where.stderr
    module_file, resources = where.stdout.splitlines()
    assert str(env_dir) in module_file and not module_file.startswith(str(ROOT))
    assert resources.startswith("False ") and "_resources" in resources
    cardgen = [str(python), "-m", "cardgen"]
    steps = (
        cardgen + ["new", "wheelgame", "--dir", str(work)],
        cardgen + ["validate", str(work / "wheelgame")],
        cardgen + ["build", str(work / "wheelgame"), "--out", str(work / "out"), "--quiet"],
    )
    for step in steps:
        done = _run(step, work, env)
        assert done.returncode == 0, (step, done.stdout[-2000:], done.stderr[-2000:])
    out = work / "out" / "wheelgame"
    names = {p.name for p in out.iterdir()}
    assert {"index.html", "wheelgame-print-a4.pdf", "wheelgame-rules-en.pdf", "wheelgame-rules-pt_BR.pdf"} <= names, sorted(names)
    assert "_resources/schema/cardgen-spec.schema.json" in (work / "wheelgame" / "game.yaml").read_text(encoding="utf-8").splitlines()[0]
