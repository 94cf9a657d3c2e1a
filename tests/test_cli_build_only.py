"""`cardgen build --only`: a build restricted to some artefacts writes those, the same bytes as a full build, and touches nothing else."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from cardgen.build import artefact_kinds
from cardgen.cache import CACHE_DIR
from cardgen.cli.app import app

MINIMAL = Path(__file__).resolve().parent / "fixtures" / "valid" / "minimal"


def _build(out: Path, *extra: str) -> None:
    result = CliRunner().invoke(app, ["build", str(MINIMAL), "--paper", "a4", "--out", str(out), "--quiet", *extra])
    assert result.exit_code == 0, result.output


def _files(out: Path) -> dict[str, bytes]:
    game = out / "minimal"
    return {str(p.relative_to(game)): p.read_bytes() for p in sorted(game.rglob("*")) if p.is_file()}


def test_every_artefact_kind_is_offered() -> None:
    assert set(artefact_kinds()) == {"faces", "bleed", "print", "rulebooks", "gallery"}


def test_only_writes_the_chosen_artefacts_with_a_full_build_s_bytes(tmp_path: Path) -> None:
    _build(tmp_path / "full")
    full = _files(tmp_path / "full")
    _build(tmp_path / "print", "--only", "print")
    assert sorted(_files(tmp_path / "print")) == ["minimal-duplex-test-a4.pdf", "minimal-print-a4.layout.json", "minimal-print-a4.pdf"]
    _build(tmp_path / "some", "--only", "faces,bleed,rulebooks")
    some = _files(tmp_path / "some")
    assert {name for name in some if not name.startswith("cards/")} == {"minimal-cards-bleed.pdf", "minimal-rules-en.md", "minimal-rules-en.pdf", "minimal-rules-pt_BR.md", "minimal-rules-pt_BR.pdf"}
    assert sorted(name for name in some if name.startswith("cards/")) == sorted(name for name in full if name.startswith("cards/"))
    for files in (_files(tmp_path / "print"), some):
        assert {name: data for name, data in files.items() if full[name] != data} == {}


def test_a_partial_build_leaves_the_other_artefacts_and_their_cache_entries(tmp_path: Path) -> None:
    out = tmp_path / "out"
    _build(out)
    before = _files(out)
    entries = sorted(p.name for p in (out / CACHE_DIR / "minimal").iterdir())
    _build(out, "--only", "print")
    assert _files(out) == before  # the sheets are rewritten with the same bytes; the rest is left alone
    assert sorted(p.name for p in (out / CACHE_DIR / "minimal").iterdir()) == entries  # nothing pruned


def test_an_unknown_artefact_is_a_usage_error(tmp_path: Path) -> None:
    for value in ("prnt", "print,", ",", ""):  # nothing is built for a bad value
        result = CliRunner().invoke(app, ["build", str(MINIMAL), "--out", str(tmp_path / "out"), "--only", value])
        if value == "print,":
            assert result.exit_code == 0, result.output  # a trailing comma is harmless
            continue
        assert result.exit_code == 2, (value, result.output)
        words = " ".join(result.output.replace("│", " ").split())
        assert "--only" in words and "choose from bleed, faces, gallery, print, rulebooks" in words, words
