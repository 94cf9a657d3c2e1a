"""Previews and exports report their progress: as many units announced as are then done, one per file written."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from cardgen.cli.app import app
from cardgen.export.preview import write_previews
from cardgen.export.profiles import export_profile, load_profile
from cardgen.export.tts import export_tts
from cardgen.spec.load import LoadedSpec


class Recorder:
    """A progress hook that keeps what it was told."""

    def __init__(self) -> None:
        self.totals: list[int] = []
        self.done = 0

    def start(self, total: int, description: str = "") -> None:
        self.totals.append(total)

    def advance(self, done: int = 1) -> None:
        self.done += done


def test_previews_count_every_face_and_the_contact_sheet(mausoleum: LoadedSpec, tmp_path: Path) -> None:
    hook = Recorder()
    result = write_previews(mausoleum, tmp_path, dpi=20, progress=hook)
    assert hook.totals == [len(result.faces) + 1] and hook.done == len(result.faces) + 1


def test_tabletop_simulator_export_counts_its_decks(ceramus: LoadedSpec, tmp_path: Path) -> None:
    hook = Recorder()
    result = export_tts(ceramus, tmp_path, progress=hook)
    assert hook.totals == [len(result.decks)] and hook.done == len(result.decks) > 1


def test_print_shop_exports_count_their_files(mausoleum: LoadedSpec, tmp_path: Path) -> None:
    for name in ("drivethrucards", "makeplayingcards"):
        hook = Recorder()
        result = export_profile(mausoleum, load_profile(name), tmp_path / name, progress=hook)
        written = [f for f in result.files if f.suffix in (".pdf", ".png")]
        assert hook.totals == [len(written)] and hook.done == len(written) > 0, name


def test_solving_many_deals_takes_quiet() -> None:
    result = CliRunner().invoke(app, ["solve", "ceratopsians", "--deals", "2", "--quiet"])
    assert result.exit_code == 0, result.output
    assert "2 deals: mean" in result.output
