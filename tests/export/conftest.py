"""Fixtures for the export tests: shipped specs loaded once, exports written once per session."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.spec.load import LoadedSpec, load_spec

SPECS = Path(__file__).resolve().parents[2] / "specs"


def load(game: str) -> LoadedSpec:
    """A shipped game's spec, which must load cleanly."""
    loaded = load_spec(SPECS / game)
    assert loaded.spec is not None, loaded.findings
    return loaded


@pytest.fixture(scope="session")
def mausoleum() -> LoadedSpec:
    """Mausoleum Guardians: one poker deck of 52 cards (14 distinct) with a common back."""
    return load("mausoleum-guardians")


@pytest.fixture(scope="session")
def ceratopsians() -> LoadedSpec:
    """Ceratopsians: 18 double-sided square cards."""
    return load("ceratopsians")


@pytest.fixture(scope="session")
def ceramus() -> LoadedSpec:
    """Ceramus: three decks of two sizes and a component (tiles)."""
    return load("ceramus")
