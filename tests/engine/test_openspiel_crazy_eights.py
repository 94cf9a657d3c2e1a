"""Crazy Eights in the rules vocabulary against an independent model: OpenSpiel's ``crazy_eights``.

``tests/fixtures/crazy-eights-openspiel`` writes OpenSpiel's rules (no special cards) as rules data. Its
uniformly random games on cardgen's interpreter must match OpenSpiel's random-play figures, recorded by
``bench/openspiel_crazy_eights.py --record`` from 4,000 OpenSpiel games per player count (OpenSpiel is not a
dependency, so the suite reads the recorded figures): decisions per game, card plays, draws, passes, and
how often a game ends by an emptied hand or by passes. Every figure is worked out from the sequence of
decisions by the same function on both sides.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from cardgen.api import load_spec, make_game

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from openspiel_crazy_eights import FIGURES, FIXTURE, METRICS, cardgen_game, difference_in_errors, summarise  # noqa: E402

GAMES = 400
"""cardgen's random games per player count: enough that a rule read differently (a draw limit off by one,
passes counted another way) moves a figure many standard errors, few enough for the suite."""
AGREEMENT = 4.0
"""The largest difference allowed, in standard errors of the difference (28 comparisons at a 4 SE bound:
a false alarm about once in 500 runs of a changed seed, and the seeds are fixed)."""


@pytest.fixture(scope="module")
def recorded() -> dict[str, dict[str, dict[str, float]]]:
    return json.loads(FIGURES.read_text())["figures"]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_play_matches_openspiel(players: int, recorded: dict[str, dict[str, dict[str, float]]]) -> None:
    loaded = load_spec(FIXTURE)
    game = make_game(loaded, players)
    ours = summarise([cardgen_game(game, seed) for seed in range(GAMES)])
    theirs = recorded[str(players)]
    apart = {metric: round(difference_in_errors(ours[metric], theirs[metric]), 2) for metric in METRICS}
    means = {metric: (round(ours[metric]["mean"], 2), round(theirs[metric]["mean"], 2)) for metric in METRICS}
    assert all(abs(z) <= AGREEMENT for z in apart.values()), f"cardgen vs OpenSpiel means {means}, apart in SE {apart}"


def test_the_comparison_tells_a_rule_read_differently(tmp_path: Path, recorded: dict[str, dict[str, dict[str, float]]]) -> None:
    """The shipped Crazy Eights (three draws a turn, a pass only when stuck, the end when everyone passes) is
    another game: its random play must be told apart from OpenSpiel's, or the comparison above proves nothing."""
    loaded = load_spec(ROOT / "specs" / "crazy-eights")
    game = make_game(loaded, 4)
    ours = summarise([cardgen_game(game, seed) for seed in range(GAMES)])
    apart = {metric: difference_in_errors(ours[metric], recorded["4"][metric]) for metric in METRICS}
    assert max(abs(z) for z in apart.values()) > AGREEMENT * 2, apart
