"""Shared helpers for the rulebook tests: the fixture spec, the real specs, cached builds."""

from __future__ import annotations

import io
import re
import shutil
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pypdf
import pytest

from cardgen.rulebook.build import Rulebook, prepare_rulebook, rulebook_pdf
from cardgen.spec.load import LoadedSpec
from cardgen.spec.models import Spec
from cardgen.catalogue import validate_folder

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
FIXTURES = HERE / "fixtures"
LANTERN = FIXTURES / "lantern-market"
CATALOGS = FIXTURES / "catalogs"


@lru_cache(maxsize=None)
def load_clean_loaded(folder: Path) -> LoadedSpec | None:
    """The loaded spec in ``folder`` when it loads and passes the static checks without errors."""
    result = validate_folder(folder, ["static"])
    if result.has_errors or result.loaded is None or result.loaded.spec is None:
        return None
    return result.loaded


def load_clean(folder: Path) -> Spec | None:
    """The spec in ``folder`` when it loads and passes the static checks without errors."""
    loaded = load_clean_loaded(folder)
    return loaded.spec if loaded is not None else None


def clean_spec_folders() -> list[Path]:
    """The fixture spec, then every spec under specs/ that loads cleanly (the real games, as they land)."""
    folders = [LANTERN]
    specs_root = ROOT / "specs"
    if specs_root.is_dir():
        for game in sorted(specs_root.glob("*/game.yaml")):
            if load_clean(game.parent) is not None:
                folders.append(game.parent)
    return folders


SPEC_FOLDERS = clean_spec_folders()
SPEC_IDS = [folder.name for folder in SPEC_FOLDERS]


@dataclass
class Built:
    """One rulebook built in memory: the document, its Markdown, and the A4 PDF with its text."""

    spec: Spec
    rulebook: Rulebook
    pdf: bytes
    text: str
    lines: list[str]


def pdf_text(data: bytes) -> str:
    """All the text pypdf extracts from a PDF, pages joined by newlines."""
    reader = pypdf.PdfReader(io.BytesIO(data))
    return "\n".join(page.extract_text() or "" for page in reader.pages)


def squash(text: str) -> str:
    """Whitespace collapsed to single spaces (PDF text breaks lines anywhere)."""
    return re.sub(r"\s+", " ", text)


@lru_cache(maxsize=None)
def built(folder: Path, locale: str) -> Built:
    """Build (once per test session) the rulebook of the spec in ``folder`` in ``locale``, with card pictures and
    the figures drawn from the engine, as the CLI does."""
    loaded = load_clean_loaded(folder)
    assert loaded is not None and loaded.spec is not None, f"{folder} does not load cleanly"
    spec = loaded.spec
    rulebook, pictures = prepare_rulebook(spec, locale, folder, loaded)
    data = rulebook_pdf(spec, rulebook, "a4", pictures)
    text = pdf_text(data)
    return Built(spec, rulebook, data, text, [line.strip() for line in text.splitlines()])


def copy_spec(tmp_path: Path, folder: Path = LANTERN) -> Path:
    """A copy of a spec folder under ``tmp_path`` that a test may edit."""
    target = tmp_path / folder.name
    shutil.copytree(folder, target)
    return target


def edit(path: Path, old: str, new: str) -> None:
    """Replace one exact piece of text in a file (it must be there)."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.fixture
def lantern_copy(tmp_path: Path) -> Path:
    """An editable copy of the fixture spec."""
    return copy_spec(tmp_path)
