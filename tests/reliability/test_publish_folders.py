"""Publishing a staged folder whole: a folder new to the game's output moves with one rename, anything else file by file.

A first build of a large deck stages thousands of face SVGs in one folder; moving
that folder with one rename publishes the same files as moving each (issue 17).
These tests check that the files, the journal and the staging folder end as a
file-by-file publish leaves them, that a folder already in the output is merged
file by file (the user's files in it kept), that a staged link is never
published, and that a publish interrupted after the folder's rename is finished
by the next build.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

import cardgen.publish as publish_module
from cardgen.publish import build_lock, publish


def _stage(out: Path, faces: int = 30) -> Path:
    staging = out / ".staging-game-pid1-x"
    (staging / "cards").mkdir(parents=True)
    for index in range(faces):
        (staging / "cards" / f"face-{index:03d}.svg").write_text(f"face {index}", encoding="utf-8")
    (staging / "game-print.pdf").write_text("sheets", encoding="utf-8")
    (staging / "index.html").write_text("gallery", encoding="utf-8")
    return staging


def _files(folder: Path) -> dict[str, str]:
    return {str(path.relative_to(folder)): path.read_text(encoding="utf-8") for path in sorted(folder.rglob("*")) if path.is_file()}


def _count_renames(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    renamed: list[str] = []
    real_replace = os.replace

    def replace(source: Any, destination: Any) -> None:
        renamed.append(Path(destination).name)
        real_replace(source, destination)

    monkeypatch.setattr(os, "replace", replace)
    return renamed


def test_a_new_folder_is_published_with_one_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    staging = _stage(out)
    expected = _files(staging)
    renamed = _count_renames(monkeypatch)
    moved = publish(staging, out / "game")
    assert _files(out / "game") == expected
    assert sorted(moved) == sorted(out / "game" / name for name in expected)
    assert renamed == [".cardgen-publish-game.json", "cards", "game-print.pdf", "index.html"]  # the journal, the folder, the files
    assert _files(staging) == {} and not list(out.glob(".cardgen-publish-*"))  # (the build removes the emptied staging folder)


def test_a_folder_already_there_is_merged_file_by_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    staging = _stage(out)
    expected = _files(staging)
    (out / "game" / "cards").mkdir(parents=True)
    (out / "game" / "cards" / "my-notes.txt").write_text("mine", encoding="utf-8")
    (out / "game" / "cards" / "face-000.svg").write_text("old face", encoding="utf-8")
    renamed = _count_renames(monkeypatch)
    publish(staging, out / "game")
    assert _files(out / "game") == {**expected, "cards/my-notes.txt": "mine"}
    assert len(renamed) == len(expected) + 1 and "cards" not in renamed  # the journal and every file, one by one


def test_a_staged_link_is_never_published(tmp_path: Path) -> None:
    out = tmp_path / "out"
    staging = _stage(out)
    (tmp_path / "secret.txt").write_text("secret", encoding="utf-8")
    (staging / "cards" / "link.svg").symlink_to(tmp_path / "secret.txt")
    expected = {name: text for name, text in _files(staging).items() if name != "cards/link.svg"}
    publish(staging, out / "game")
    assert _files(out / "game") == expected
    assert not (out / "game" / "cards" / "link.svg").exists() and not (out / "game" / "cards" / "link.svg").is_symlink()


def test_a_publish_interrupted_after_the_folder_moved_is_finished(tmp_path: Path) -> None:
    """The folder is published, the rest is still staged and the journal names every file: the next build ends it."""
    out = tmp_path / "out"
    staging = _stage(out)
    expected = _files(staging)
    files = sorted(expected, key=lambda name: (name == "index.html", name))
    record = {"staging": staging.name, "target": "game", "files": files}
    publish_module.journal_path(out, "game").write_text(json.dumps(record), encoding="utf-8")
    (out / "game").mkdir()
    os.rename(staging / "cards", out / "game" / "cards")  # killed right after the folder's rename
    with build_lock(out):
        pass
    assert _files(out / "game") == expected
    assert not staging.exists() and not list(out.glob(".cardgen-publish-*"))
    assert publish_module.repair_notes("game")
