"""Builds never lose or half-write output, hold a lock, spare the user's files and are reproducible.

Fast tests use a deterministic test producer in place of the real ones (so they
run whatever the renderers do); the tests marked "real producers" run the
producers registered by cardgen.render and cardgen.rulebook as soon as they
exist, and are skipped before.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Iterator
from unittest import mock

import pytest

import cardgen.artefacts as artefacts_module

from cardgen.cache import CACHE_DIR
from cardgen.artefacts import BuildContext, BuildOptions
from cardgen.build import build_game, registered_producers
from cardgen.publish import LOCK_NAME, build_lock
from cardgen.cli.app import main

from external_tools import optional

from .conftest import MINIMAL, ROOT, copy_spec, shipped_spec_folders


def run_cli(args: list[str]) -> tuple[int, str, str]:
    """Run ``cardgen <args>`` in this process through the real entry point: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    code: int | str | None = 0
    with mock.patch.object(sys, "argv", ["cardgen", *args]), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main()
        except SystemExit as stop:
            code = stop.code
    return (code if isinstance(code, int) else 0 if code is None else 1), out.getvalue(), err.getvalue()


def tree_hashes(folder: Path) -> dict[str, str]:
    """sha256 of every published file under ``folder``, by relative path.

    The build's artefact cache (``<out>/.cache/``, when the build keeps one) is
    not output: it may fill up during a build that fails, and is left out here.
    """
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and CACHE_DIR not in path.relative_to(folder).parts
    }


def leftovers(out: Path) -> list[str]:
    """Staging folders, lock files or temporary files left in the output folder."""
    return sorted(
        str(p.relative_to(out)) for p in out.rglob("*") if p.name.startswith((".staging-", LOCK_NAME)) or p.suffix in {".tmp", ".part"}
    )


# --- a deterministic test producer ---------------------------------------------------


def card_list_producer(context: BuildContext) -> list[Path]:
    """Writes one text file per deck listing its cards, and a summary in a subfolder."""
    spec = context.loaded.spec
    assert spec is not None
    written = []
    for deck in spec.decks:
        path = context.staging / f"{deck.id}.txt"
        path.write_text("\n".join(f"{c.id} x{c.copies}" for c in deck.cards) + "\n", encoding="utf-8")
        written.append(path)
    (context.staging / "summary").mkdir(exist_ok=True)
    summary = context.staging / "summary" / "decks.txt"
    summary.write_text(",".join(d.id for d in spec.decks) + "\n", encoding="utf-8")
    return written + [summary]


class Boom(RuntimeError):
    """The failure injected into a build."""


def failing_producer(context: BuildContext) -> list[Path]:
    """Writes half a file, then fails, as a crashing renderer would."""
    partial = context.staging / "zz-partial.pdf"
    partial.write_bytes(b"%PDF-1.4\n% half a file")
    (context.staging / "shapes.txt").write_text("overwritten halfway\n", encoding="utf-8")
    raise Boom("renderer crashed halfway")


def interrupting_producer(context: BuildContext) -> list[Path]:
    """Writes half a file, then the user presses Ctrl-C."""
    (context.staging / "shapes.txt").write_text("overwritten halfway\n", encoding="utf-8")
    raise KeyboardInterrupt


@pytest.fixture
def test_producers(monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    """Replace every registered producer with the test producer (the real ones stay registered but unused)."""
    producers: dict[str, object] = {"cards-list": card_list_producer}
    monkeypatch.setattr(artefacts_module, "_PRODUCERS", producers)
    return producers


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    return copy_spec(MINIMAL, tmp_path / "spec")


def test_build_publishes_test_producer_output(spec: Path, tmp_path: Path, test_producers: dict[str, object]) -> None:
    out = tmp_path / "out"
    code, stdout, stderr = run_cli(["build", str(spec), "--out", str(out)])
    assert code == 0, (stdout, stderr)
    assert sorted(tree_hashes(out / "minimal")) == ["bones.txt", "pots.txt", "shapes.txt", "sites.txt", "summary/decks.txt"]
    assert (out / "minimal" / "shapes.txt").read_text(encoding="utf-8") == "domino x2\ncorner x1\n"
    assert leftovers(out) == []


@pytest.mark.parametrize(
    ("producer", "code", "message"),
    [(failing_producer, 3, "internal error: Boom: renderer crashed halfway"), (interrupting_producer, 130, "interrupted")],
)
def test_failure_midway_leaves_previous_output_byte_identical(
    spec: Path, tmp_path: Path, test_producers: dict[str, object], producer: object, code: int, message: str
) -> None:
    out = tmp_path / "out"
    assert run_cli(["build", str(spec), "--out", str(out)])[0] == 0
    before = tree_hashes(out)
    # the second build has something new to write, then fails halfway
    text = (spec / "game.yaml").read_text(encoding="utf-8")
    (spec / "game.yaml").write_text(text.replace("id: corner", "id: elbow", 1), encoding="utf-8")
    test_producers["zz-fails"] = producer
    got, stdout, stderr = run_cli(["build", str(spec), "--out", str(out)])
    assert got == code, (stdout, stderr)
    assert message in stderr and "Traceback" not in stderr
    assert tree_hashes(out) == before  # nothing lost, nothing half-written, nothing new published
    assert leftovers(out) == []  # staging folder and lock removed


def test_producer_error_findings_publish_nothing(spec: Path, tmp_path: Path, test_producers: dict[str, object]) -> None:
    from cardgen.findings import Finding, Severity

    def reports_error(context: BuildContext) -> list[Path]:
        (context.staging / "half.svg").write_text("<svg", encoding="utf-8")
        context.findings.append(Finding(context.loaded.file, 1, 1, "CG999", Severity.ERROR, "", "could not draw"))
        return []

    out = tmp_path / "out"
    assert run_cli(["build", str(spec), "--out", str(out)])[0] == 0
    before = tree_hashes(out)
    test_producers["zz-reports"] = reports_error
    code, stdout, stderr = run_cli(["build", str(spec), "--out", str(out)])
    assert code == 1 and "CG999 error: could not draw" in stdout
    assert "minimal: not built" in stderr
    assert tree_hashes(out) == before and leftovers(out) == []


def test_second_build_while_one_runs_gets_a_clear_message(spec: Path, tmp_path: Path, test_producers: dict[str, object]) -> None:
    out = tmp_path / "out"
    with build_lock(out):
        code, stdout, stderr = run_cli(["build", str(spec), "--out", str(out)])
        assert (out / LOCK_NAME).exists()  # the running build's lock is not taken away
    assert code == 2
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and "another build is running on this output folder" in lines[0]
    assert lines[0].startswith(str(out)) and "Traceback" not in stderr
    assert not (out / "minimal").exists()
    assert not (out / LOCK_NAME).exists()
    assert run_cli(["build", str(spec), "--out", str(out)])[0] == 0  # and the lock is free again


def test_nested_build_from_inside_a_running_build_is_refused(spec: Path, tmp_path: Path, test_producers: dict[str, object]) -> None:
    out = tmp_path / "out"
    seen: list[tuple[int, str]] = []

    def starts_another_build(context: BuildContext) -> list[Path]:
        code, _stdout, stderr = run_cli(["build", str(spec), "--out", str(out)])
        seen.append((code, stderr))
        return []

    test_producers["zz-nested"] = starts_another_build
    assert run_cli(["build", str(spec), "--out", str(out)])[0] == 0
    assert len(seen) == 1 and seen[0][0] == 2 and "another build is running" in seen[0][1]


def test_user_files_in_the_output_folder_survive(spec: Path, tmp_path: Path, test_producers: dict[str, object]) -> None:
    out = tmp_path / "out"
    (out / "minimal").mkdir(parents=True)
    (out / "notes.txt").write_text("my notes\n", encoding="utf-8")
    (out / "minimal" / "photo.jpg").write_bytes(b"\xff\xd8 not really a photo")
    (out / "minimal" / "old-cardgen-output.pdf").write_bytes(b"%PDF from an older version")
    assert run_cli(["build", str(spec), "--out", str(out)])[0] == 0
    assert run_cli(["build", str(spec), "--out", str(out)])[0] == 0
    assert (out / "notes.txt").read_text(encoding="utf-8") == "my notes\n"
    assert (out / "minimal" / "photo.jpg").read_bytes() == b"\xff\xd8 not really a photo"
    assert (out / "minimal" / "old-cardgen-output.pdf").exists()
    assert (out / "minimal" / "shapes.txt").exists()


def test_unreadable_spec_does_not_stop_the_other_games(spec: Path, tmp_path: Path, test_producers: dict[str, object]) -> None:
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "game.yaml").write_text("spec_version: 1\nid: [unclosed\n", encoding="utf-8")
    out = tmp_path / "out"
    code, stdout, stderr = run_cli(["build", str(broken), str(spec), "--out", str(out)])
    assert code == 2
    assert "game.yaml:3:1: error: YAML syntax error" in stderr and "Traceback" not in stderr
    assert (out / "minimal" / "shapes.txt").exists()  # the sound spec was still built
    assert leftovers(out) == []


def test_test_producer_build_is_reproducible(spec: Path, tmp_path: Path, test_producers: dict[str, object]) -> None:
    first = build_game(spec, tmp_path / "a", BuildOptions())
    second = build_game(spec, tmp_path / "b", BuildOptions())
    assert not first.failed and not second.failed
    assert tree_hashes(tmp_path / "a") == tree_hashes(tmp_path / "b") != {}


def test_output_stays_under_the_output_folder(spec: Path, tmp_path: Path, test_producers: dict[str, object]) -> None:
    out = tmp_path / "deep" / "out"
    before = {p for p in tmp_path.rglob("*") if p.is_file()}
    assert run_cli(["build", str(spec), "--out", str(out)])[0] == 0
    new = {p for p in tmp_path.rglob("*") if p.is_file()} - before
    assert new and all(out in p.parents for p in new)


# --- the real producers (card faces, sheets, rulebooks) ------------------------------------


def _build_in_subprocess(games: list[str], out: Path, hash_seed: str) -> subprocess.Popen[bytes]:
    env = dict(os.environ, PYTHONHASHSEED=hash_seed, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.Popen(
        [sys.executable, "-m", "cardgen", "build", *games, "--out", str(out), "--quiet"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )


@pytest.fixture(scope="module")
def twin_builds(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path, list[str]]]:
    """Every shipped spec and the minimal fixture built twice, at once, in two processes with different hash seeds."""
    assert registered_producers(), "the build pipeline registers its producers when it is imported"
    root = tmp_path_factory.mktemp("twin-builds")
    games = [str(folder) for folder in shipped_spec_folders()] + [str(MINIMAL)]
    first = _build_in_subprocess(games, root / "a", "1")
    second = _build_in_subprocess(games, root / "b", "2")
    logs = [process.communicate(timeout=600) for process in (first, second)]
    for process, (stdout, stderr) in zip((first, second), logs):
        assert process.returncode in (0, 1), stderr.decode("utf-8", "replace")
        assert b"Traceback" not in stderr
    yield root / "a", root / "b", games
    shutil.rmtree(root, ignore_errors=True)


def test_real_builds_are_byte_identical(twin_builds: tuple[Path, Path, list[str]]) -> None:
    first, second, _games = twin_builds
    hashes = tree_hashes(first)
    assert hashes, "nothing was built"
    assert any(name.startswith("minimal/") for name in hashes)
    other = tree_hashes(second)
    assert sorted(hashes) == sorted(other)
    differing = sorted(name for name in hashes if hashes[name] != other[name])
    assert differing == []
    assert leftovers(first) == [] and leftovers(second) == []


def test_real_pdfs_and_svgs_open_in_standard_readers(twin_builds: tuple[Path, Path, list[str]]) -> None:
    import json

    import pypdf
    first, _second, _games = twin_builds
    pdfs = sorted(first.rglob("*.pdf"))
    svgs = sorted(first.rglob("*.svg"))
    assert pdfs and svgs
    qpdf = optional("qpdf")
    for pdf in pdfs:
        reader = pypdf.PdfReader(pdf, strict=True)
        assert len(reader.pages) >= 1, pdf
        for page in reader.pages:
            assert page.mediabox.width > 0 and page.mediabox.height > 0
        if qpdf:
            check = subprocess.run([qpdf, "--check", str(pdf)], capture_output=True, text=True)
            assert check.returncode == 0, (pdf, check.stdout, check.stderr)
    for svg in svgs:
        root = ET.parse(svg).getroot()
        assert root.tag == "{http://www.w3.org/2000/svg}svg", svg
        assert root.get("viewBox"), svg
    for data in sorted(first.rglob("*.json")):
        json.loads(data.read_text(encoding="utf-8"))


def test_real_producer_failure_midway_keeps_previous_output(spec: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    producers = registered_producers()
    assert producers, "the build pipeline registers its producers when it is imported"
    out = tmp_path / "out"
    code, stdout, stderr = run_cli(["build", str(spec), "--out", str(out), "--paper", "a4"])
    assert code == 0, (stdout, stderr)
    before = tree_hashes(out)
    assert len(before) > 3
    monkeypatch.setitem(artefacts_module._PRODUCERS, "zz-fails", failing_producer)
    code, stdout, stderr = run_cli(["build", str(spec), "--out", str(out), "--paper", "a4"])
    assert code == 3 and "renderer crashed halfway" in stderr
    assert tree_hashes(out) == before
    assert leftovers(out) == []


def test_a_lock_left_by_a_dead_build_is_taken_over(tmp_path: Path) -> None:
    """A build killed with kill -9 leaves its lock and staging folder; the next build recovers both."""
    import subprocess
    import sys

    from cardgen.publish import LOCK_NAME, build_lock

    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True, check=True)
    pid = int(dead.stdout)
    out = tmp_path / "out"
    out.mkdir()
    (out / LOCK_NAME).write_text(str(pid), encoding="ascii")
    stale = out / f".staging-game-pid{pid}-abc"
    stale.mkdir()
    (stale / "half.pdf").write_bytes(b"%PDF-1.4 half")
    with build_lock(out):
        assert (out / LOCK_NAME).read_text(encoding="ascii") == str(__import__("os").getpid())
    assert not stale.exists()
    assert not (out / LOCK_NAME).exists()


def test_a_lock_held_by_a_live_process_is_respected(tmp_path: Path) -> None:
    """Another process holding the operating-system lock keeps it; the message names that process."""
    from cardgen.publish import LOCK_NAME, build_lock
    from cardgen.findings import InputError

    out = tmp_path / "out"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys; from pathlib import Path; from cardgen.publish import build_lock\n"
         "with build_lock(Path(sys.argv[1])):\n    print('held', flush=True); sys.stdin.read()", str(out)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(InputError, match=f"another build is running on this output folder \\(process {holder.pid}\\)"):
            with build_lock(out):
                pass
        assert (out / LOCK_NAME).exists()
    finally:
        holder.communicate("", timeout=60)
    with build_lock(out):  # free again once its holder is gone
        pass
