"""Atomic output: a publish is whole or finished by the next build, the lock is the kernel's, the cache is checked.

Covers issue 15, family 3: a kill or Ctrl-C inside the publish, two builds and
a stale lock, a flipped byte in the cache, a folder (or a link) where cardgen
writes a file, and a gallery that must equal a fresh build's.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

import cardgen.artefacts as artefacts_module
import cardgen.cache as cache_module
import cardgen.publish as publish_module
from cardgen.artefacts import BuildContext
from cardgen.build import registered_producers
from cardgen.cache import CACHE_DIR
from cardgen.publish import LOCK_NAME, build_lock
from cardgen.cli.app import INTERRUPTED
from cardgen.findings import InputError

from .conftest import MINIMAL, ROOT, copy_spec, one_line
from .test_build_safety import leftovers, run_cli, tree_hashes

FILES = 40
"""Files the test producer writes (plus index.html and a summary in a subfolder)."""


def versioned_producer(version: str) -> Callable[[BuildContext], list[Path]]:
    """A producer writing FILES files, a subfolder file and index.html, each holding ``version``."""

    def produce(context: BuildContext) -> list[Path]:
        written = []
        for index in range(FILES):
            path = context.staging / f"part-{index:02d}.txt"
            path.write_text(version, encoding="utf-8")
            written.append(path)
        (context.staging / "summary").mkdir(exist_ok=True)
        for path in (context.staging / "summary" / "all.txt", context.staging / "index.html"):
            path.write_text(version, encoding="utf-8")
            written.append(path)
        return written

    return produce


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    return copy_spec(MINIMAL, tmp_path / "spec")


@pytest.fixture
def use_version(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """Make the build run only the versioned test producer."""

    def choose(version: str) -> None:
        monkeypatch.setattr(artefacts_module, "_PRODUCERS", {"versioned": versioned_producer(version)})

    return choose


def contents(game: Path) -> dict[str, str]:
    return {str(p.relative_to(game)): p.read_text(encoding="utf-8") for p in sorted(game.rglob("*")) if p.is_file()}


# --- a kill or Ctrl-C inside the publish ------------------------------------------------

KILLED_BUILD = """
import os, signal, sys
from pathlib import Path
import cardgen.artefacts as artefacts
import cardgen.build as build

version, kill_at = sys.argv[3], int(sys.argv[4])
real_replace = os.replace
renames = [0]

def replace(source, destination):
    renames[0] += 1
    if renames[0] == kill_at:
        os.kill(os.getpid(), signal.SIGKILL)
    real_replace(source, destination)

def produce(context):
    for index in range(40):
        (context.staging / f"part-{index:02d}.txt").write_text(version, encoding="utf-8")
    (context.staging / "summary").mkdir(exist_ok=True)
    (context.staging / "summary" / "all.txt").write_text(version, encoding="utf-8")
    (context.staging / "index.html").write_text(version, encoding="utf-8")
    os.replace = replace  # from here on, every rename is part of publishing
    return []

artefacts._PRODUCERS.clear()
artefacts._PRODUCERS["versioned"] = produce
with build.build_lock(Path(sys.argv[2])):
    build.build_game(Path(sys.argv[1]), Path(sys.argv[2]), build.BuildOptions(cache=False))
"""


def _killed_build(spec: Path, out: Path, version: str, kill_at: int) -> int:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", KILLED_BUILD, str(spec), str(out), version, str(kill_at)], env=env, capture_output=True, text=True, timeout=300)
    return done.returncode


def test_a_build_killed_inside_the_publish_is_finished_by_the_next_one(spec: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert _killed_build(spec, out, "old", 0) == 0
    game = out / "minimal"
    (game / "my-notes.txt").write_text("mine", encoding="utf-8")
    assert _killed_build(spec, out, "new", 20) == -signal.SIGKILL
    mixed = contents(game)
    assert {"old", "new"} <= set(mixed.values()) and mixed["index.html"] == "old"  # what the issue saw
    assert publish_module.journal_path(out, "minimal").exists()
    with build_lock(out):  # the next build on this output folder, as soon as it holds the lock
        pass
    repaired = contents(game)
    assert repaired.pop("my-notes.txt") == "mine"
    assert set(repaired.values()) == {"new"} and len(repaired) == FILES + 2
    assert leftovers(out) == [] and not list(out.glob(".cardgen-publish-*"))
    assert publish_module.repair_notes("minimal") and publish_module.repair_notes("minimal") == []


def test_ctrl_c_inside_the_publish_lets_it_finish_first(spec: Path, tmp_path: Path, use_version: Callable[[str], None], monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    use_version("old")
    assert run_cli(["build", str(spec), "--out", str(out)])[0] == 0
    use_version("new")
    real_replace = os.replace
    renames = [0]

    def replace(source: Any, destination: Any) -> None:
        if str(destination).startswith(str(out / "minimal")):
            renames[0] += 1
            if renames[0] == 5:
                signal.raise_signal(signal.SIGINT)  # the user presses Ctrl-C halfway through
        real_replace(source, destination)

    monkeypatch.setattr(os, "replace", replace)
    # Ctrl-C must reach Python as a person's terminal sends it: a process started in the background by a
    # non-interactive shell inherits SIGINT ignored, and Python then keeps it ignored.
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        code, _stdout, stderr = run_cli(["build", str(spec), "--out", str(out)])
    finally:
        signal.signal(signal.SIGINT, before)
    assert code == 130 and INTERRUPTED in stderr
    assert set(contents(out / "minimal").values()) == {"new"}  # so the message is true
    assert leftovers(out) == [] and not list(out.glob(".cardgen-publish-*"))


def test_a_journal_naming_paths_outside_is_not_obeyed(tmp_path: Path) -> None:
    out = tmp_path / "out"
    staging = out / ".staging-minimal-pid1-x"
    (staging / "sub").mkdir(parents=True)
    (staging / "sub" / "a.txt").write_text("a", encoding="utf-8")
    (tmp_path / "victim.txt").write_text("keep", encoding="utf-8")
    record = {"staging": staging.name, "target": "../elsewhere", "files": ["sub/a.txt", "../../victim.txt"]}
    publish_module.journal_path(out, "minimal").write_text(json.dumps(record), encoding="utf-8")
    (out / ".cardgen-publish-broken.json").write_text("{not json", encoding="utf-8")
    with build_lock(out):
        pass
    assert (tmp_path / "victim.txt").read_text(encoding="utf-8") == "keep"
    assert not (tmp_path / "elsewhere").exists() and not list(out.glob(".cardgen-publish-*"))


# --- the lock -----------------------------------------------------------------------------

HOLDER = "import sys; from pathlib import Path; from cardgen.publish import build_lock\nwith build_lock(Path(sys.argv[1])):\n    print('held', flush=True); sys.stdin.read()"


def _dead_pid() -> int:
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True, check=True)
    return int(done.stdout)


def test_a_lock_that_looks_stale_is_not_taken_while_its_build_runs(tmp_path: Path) -> None:
    """Before: the lock was a PID file; one naming a dead process was taken over, by any number of builds at once."""
    out = tmp_path / "out"
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(out)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        (out / LOCK_NAME).write_text(str(_dead_pid()), encoding="ascii")  # looks stale; the build that holds it still runs
        for _attempt in range(2):
            with pytest.raises(InputError, match="another build is running"):
                with build_lock(out):
                    pass
    finally:
        holder.communicate("", timeout=60)
    assert holder.returncode == 0


def test_a_lock_left_by_a_killed_build_is_free_at_once(tmp_path: Path) -> None:
    out = tmp_path / "out"
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(out)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    holder.kill()
    holder.wait(timeout=60)
    assert (out / LOCK_NAME).exists()  # left behind, but the kernel released the lock with the process
    with build_lock(out):
        assert (out / LOCK_NAME).read_text(encoding="ascii") == str(os.getpid())
    assert not (out / LOCK_NAME).exists()


# --- something in the way -----------------------------------------------------------------


@pytest.mark.parametrize("obstacle", ["folder-for-index", "file-for-folder", "link-for-folder", "link-for-file"])
def test_something_in_the_way_is_found_before_anything_is_published(
    spec: Path, tmp_path: Path, use_version: Callable[[str], None], obstacle: str
) -> None:
    """Before: the build failed after replacing most files (43 of 49 with index.html a folder)."""
    out = tmp_path / "out"
    game = out / "minimal"
    use_version("old")
    assert run_cli(["build", str(spec), "--out", str(out)])[0] == 0
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    if obstacle == "folder-for-index":
        (game / "index.html").unlink()
        (game / "index.html").mkdir()
        (game / "index.html" / "keep.txt").write_text("mine", encoding="utf-8")
        named = game / "index.html"
    elif obstacle == "file-for-folder":
        (game / "summary" / "all.txt").unlink()
        (game / "summary").rmdir()
        (game / "summary").write_text("mine", encoding="utf-8")
        named = game / "summary"
    elif obstacle == "link-for-folder":
        (game / "summary" / "all.txt").unlink()
        (game / "summary").rmdir()
        (game / "summary").symlink_to(elsewhere, target_is_directory=True)
        named = game / "summary"
    else:
        (game / "part-07.txt").unlink()
        (game / "part-07.txt").symlink_to(elsewhere / "target.txt")
        named = game / "part-07.txt"
    before = tree_hashes(game)
    use_version("new")
    code, _stdout, stderr = run_cli(["build", str(spec), "--out", str(out)])
    assert code == 2, stderr
    first = stderr.strip().splitlines()[0]
    assert one_line(first) and first.startswith(str(named)) and "move it away" in first
    assert "not built" in stderr and "Traceback" not in stderr
    assert tree_hashes(game) == before  # not one file replaced
    assert list(elsewhere.iterdir()) == []
    assert leftovers(out) == [] and not list(out.glob(".cardgen-publish-*"))


# --- the cache ----------------------------------------------------------------------------


@pytest.fixture
def real_producers() -> None:
    assert registered_producers(), "the build pipeline registers its producers when it is imported"


def test_a_flipped_byte_in_the_cache_is_never_published(spec: Path, tmp_path: Path, real_producers: None) -> None:
    """Before: artefact entries were raw bytes, published as found."""
    out = tmp_path / "out"
    args = ["build", str(spec), "--out", str(out), "--paper", "a4", "--lang", "en", "--quiet"]
    assert run_cli(args)[0] == 0
    first = tree_hashes(out / "minimal")
    entries = sorted((out / CACHE_DIR / "minimal").iterdir())
    assert len(entries) > 6  # (cardgen's own compiled templates are kept per user: tests/rulebook/test_template_cache.py damages those)
    for entry in entries:
        data = bytearray(entry.read_bytes())
        data[len(data) * 2 // 3] ^= 0x01
        entry.write_bytes(bytes(data))
    code, stdout, stderr = run_cli(args)
    assert code == 0, (stdout, stderr)
    assert tree_hashes(out / "minimal") == first
    for entry in sorted((out / CACHE_DIR / "minimal").iterdir()):
        assert cache_module.unseal_artefact(entry.read_bytes()) is not None  # each damaged entry made again


# --- the gallery --------------------------------------------------------------------------


def test_the_gallery_equals_a_fresh_build(spec: Path, tmp_path: Path, real_producers: None) -> None:
    """Before: it linked the Letter and pt_BR files an earlier build had left."""
    out, fresh = tmp_path / "out", tmp_path / "fresh"
    assert run_cli(["build", str(spec), "--out", str(out), "--quiet"])[0] == 0  # every paper, every language
    narrow = ["build", str(spec), "--paper", "a4", "--lang", "en", "--quiet"]
    assert run_cli([*narrow, "--out", str(out)])[0] == 0
    assert run_cli([*narrow, "--out", str(fresh)])[0] == 0
    page = (out / "minimal" / "index.html").read_text(encoding="utf-8")
    assert page == (fresh / "minimal" / "index.html").read_text(encoding="utf-8")
    assert "letter" not in page and "rules-pt_BR" not in page
    assert (out / "minimal" / "minimal-rules-pt_BR.md").exists()  # files cardgen wrote earlier are left, only not linked


# --- the output folder itself ---------------------------------------------------------------


@pytest.mark.parametrize("obstacle", ["out-is-a-file", "journal-is-a-folder"])
def test_an_unusable_output_folder_is_one_line_exit_2(spec: Path, tmp_path: Path, use_version: Callable[[str], None], obstacle: str) -> None:
    """Before: exit 3 (an internal error) for both."""
    out = tmp_path / "out"
    use_version("new")
    if obstacle == "out-is-a-file":
        out.write_text("mine", encoding="utf-8")
        named = out
    else:
        named = publish_module.journal_path(out, "minimal")
        named.mkdir(parents=True)
    code, _stdout, stderr = run_cli(["build", str(spec), "--out", str(out)])
    assert code == 2, stderr
    first = stderr.strip().splitlines()[0]
    assert one_line(first) and str(named) in first and "Traceback" not in stderr  # (a usage error for --out: `cardgen build: error: ...`)
    assert not (out / "minimal").exists() if out.is_dir() else out.read_text(encoding="utf-8") == "mine"


def test_a_publish_stopped_by_the_system_is_finished_by_the_next_build(
    spec: Path, tmp_path: Path, use_version: Callable[[str], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rename failing halfway (a full disk, a permission taken away) is exit 2, and its staged files wait for the next build."""
    out = tmp_path / "out"
    use_version("old")
    assert run_cli(["build", str(spec), "--out", str(out)])[0] == 0
    use_version("new")
    real_replace = os.replace
    renames = [0]

    def replace(source: Any, destination: Any) -> None:
        if str(destination).startswith(str(out / "minimal")):
            renames[0] += 1
            if renames[0] == 9:
                raise OSError(28, "No space left on device")
        real_replace(source, destination)

    monkeypatch.setattr(os, "replace", replace)
    code, _stdout, stderr = run_cli(["build", str(spec), "--out", str(out)])
    monkeypatch.setattr(os, "replace", real_replace)
    assert code == 2 and "No space left on device" in stderr and "next build" in stderr and "Traceback" not in stderr
    assert publish_module.journal_path(out, "minimal").exists() and list(out.glob(".staging-minimal-*"))
    with build_lock(out):
        pass
    assert set(contents(out / "minimal").values()) == {"new"}
    assert leftovers(out) == [] and not list(out.glob(".cardgen-publish-*"))
