"""The shipped specs, templates and catalogs are our own writing, not text pasted from the seed documents.

Facts (names, counts, the list of skull parts) necessarily match the sources; a
run of eight or more words in a row shared with a seed document is taken as
pasted prose. The seeds live beside the repository (../shared/seeds); without
them the test is skipped.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT.parent / "shared" / "seeds"
RUN = 8


def _words(text: str) -> list[str]:
    return re.findall(r"[a-záàâãéêíóôõúçü0-9]+", text.lower())


def _runs(words: list[str]) -> set[str]:
    return {" ".join(words[i : i + RUN]) for i in range(len(words) - RUN + 1)}


def _ours() -> list[Path]:
    patterns = ["specs/*/*.yaml", "specs/*/*.csv", "templates/**/*.j2", "templates/**/*.yaml", "locales/**/*.po", "README.md", "docs/*.md"]
    return sorted({p for pattern in patterns for p in ROOT.glob(pattern)})


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed documents (../shared/seeds) are not beside this checkout")
def test_no_prose_is_pasted_from_the_seed_documents() -> None:
    seed_runs: set[str] = set()
    for seed in sorted(SEEDS.glob("0*.txt")):
        seed_runs |= _runs(_words(seed.read_text(encoding="utf-8")))
    assert seed_runs, "no seed text found"
    pasted = {str(path.relative_to(ROOT)): sorted(_runs(_words(path.read_text(encoding="utf-8"))) & seed_runs)[:3] for path in _ours()}
    assert {k: v for k, v in pasted.items() if v} == {}
