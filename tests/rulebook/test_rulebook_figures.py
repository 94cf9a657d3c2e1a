"""Figures drawn from the engine (issue 16): setup diagrams, the worked turn, scored positions.

Their numbers are read off engine states, so these tests compare them with the engine and with the spec's
totals, change a count in a copy of a spec and read the rulebook back, and check both languages and the PDF.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from cardgen.engine.core import Game, State, make_game, play_actions
from cardgen.engine.interpreter import DataState
from cardgen.render.figures import TableView, Words
from cardgen.rulebook.build import build_rulebooks
from cardgen.rulebook.figures import FIGURE_SEED, Labels, figures_for, play_first_turn, rulebook_figures
from cardgen.spec.load import load_spec
from cardgen.spec.models import Spec

from .conftest import ROOT, built, copy_spec, edit, pdf_text, squash

GAMES = sorted(p.parent for p in (ROOT / "specs").glob("*/game.yaml"))
LOCALES = ("en", "pt_BR")


def _spec(folder: Path) -> Spec:
    loaded = load_spec(folder)
    assert loaded.spec is not None, loaded.findings
    return loaded.spec


@pytest.mark.parametrize("folder", GAMES, ids=[g.name for g in GAMES])
def test_every_shipped_game_offers_figures(folder: Path) -> None:
    assert figures_for(_spec(folder)) is not None


@pytest.mark.parametrize("folder", GAMES, ids=[g.name for g in GAMES])
def test_a_setup_diagram_per_player_count_accounts_for_every_card(folder: Path) -> None:
    """Each setup view comes from new_initial_state: every card of a deck is somewhere in it (a grid's deck may
    leave cards in the box), each player count has its own seats, and each seat shows its own zones."""
    spec = _spec(folder)
    figures = figures_for(spec)
    assert figures is not None
    totals = {deck.id: sum(card.copies for card in deck.cards) for deck in spec.decks}
    gridded = {grid.deck for setup in spec.setups for grid in setup.grids.values()}
    for setup in spec.setups:
        view: TableView = figures.table(make_game(spec, setup.players).new_initial_state(FIGURE_SEED))
        assert view.seats == setup.players
        assert all(view.of_seat(seat) for seat in range(setup.players))
        for deck, total in totals.items():
            shown = sum(zone.count for zone in view.zones if zone.source == deck)
            if deck in gridded:
                assert 0 < shown <= total, (deck, shown, total)
            else:
                assert shown == total, (setup.players, deck, shown, total)


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("folder", GAMES, ids=[g.name for g in GAMES])
def test_setup_figures_land_in_the_rulebook_in_both_languages(folder: Path, locale: str) -> None:
    spec = _spec(folder)
    figures = rulebook_figures(spec, locale)
    assert [f.id for f in figures.setup] == [f"setup-{s.players}" for s in sorted(spec.setups, key=lambda s: s.players)]
    book = built(folder, locale)
    markdown = book.rulebook.markdown
    player = "Player" if locale == "en" else "Jogador"
    for figure in figures.setup:
        assert f"*{figure.caption}*" in markdown
        for line in figure.lines:
            assert f"- {line}" in markdown.replace("\\", "")
        assert any(line.startswith(f"{player} 1: ") for line in figure.lines)
    text = squash(book.text)
    assert squash(figures.setup[-1].caption) in text
    assert f"{player} {spec.players.max}" in text  # the diagram's own labels are text in the PDF


def _markdown(folder: Path, tmp_path: Path, locale: str) -> str:
    spec = _spec(folder)
    build_rulebooks(spec, tmp_path / "out", [locale], ["a4"], folder, None)
    return (tmp_path / "out" / spec.id / f"{spec.id}-rules-{locale}.md").read_text(encoding="utf-8")


def test_a_changed_deal_changes_the_setup_diagram(tmp_path: Path) -> None:
    """Deal one card fewer in a copy of Mausoleum Guardians: every hand shows one fewer, the draw pile more."""
    folder = copy_spec(tmp_path, ROOT / "specs" / "mausoleum-guardians")
    before = _markdown(folder, tmp_path / "a", "en")
    game = folder / "game.yaml"
    text = game.read_text(encoding="utf-8")
    game.write_text(re.sub(r"deal: \{cards: 5\}", "deal: {cards: 4}", text), encoding="utf-8")
    assert game.read_text(encoding="utf-8") != text
    after = _markdown(folder, tmp_path / "b", "en")
    spec = _spec(folder)
    for setup in spec.setups:
        state = make_game(spec, setup.players).new_initial_state(FIGURE_SEED)
        assert isinstance(state, DataState)
        for seat in range(setup.players):
            held = len(state.z[state.g.slot("hand", seat)])
            assert held == 4 + (seat == 0) * spec.numbers["draw_per_turn"]
            assert re.search(rf"Player {seat + 1}: Mausoleum deck: {held} cards? in hand", after)
    pile = re.compile(r"Mausoleum deck: draw pile, (\d+) cards")
    old, new = [int(n) for n in pile.findall(before)[:3]], [int(n) for n in pile.findall(after)[:3]]
    assert [b - a for a, b in zip(old, new)] == [2, 3, 4]
    setup_before, setup_after = before.split("## Playing a Turn")[0], after.split("## Playing a Turn")[0]
    assert "Player 2: Mausoleum deck: 5 cards in hand" in setup_before
    assert "Player 2: Mausoleum deck: 5 cards in hand" not in setup_after


def test_a_changed_grid_changes_the_mural(tmp_path: Path) -> None:
    """Ceramus with a 3 x 2 Mural for two players: the diagram's board follows the spec through the engine."""
    folder = copy_spec(tmp_path, ROOT / "specs" / "ceramus")
    edit(folder / "game.yaml", "grids: {mural: {deck: mural, columns: 4, rows: 2}}", "grids: {mural: {deck: mural, columns: 3, rows: 2}}")
    markdown = _markdown(folder, tmp_path, "pt_BR")
    spec = _spec(folder)
    side = spec.numbers["cells_per_card_side"]
    assert f"Cartas de Mural: 6 cartas, {3 * side} × {2 * side} espaços" in markdown


@pytest.mark.parametrize("folder", GAMES, ids=[g.name for g in GAMES])
def test_the_worked_turn_is_a_real_replay_with_its_scores(folder: Path) -> None:
    """The turn's actions replay legally from the seed, and the scores printed are the replayed state's."""
    spec = _spec(folder)
    for locale in LOCALES:
        turn = rulebook_figures(spec, locale).turn
        assert turn is not None
        game = make_game(spec, turn.players)
        state, steps = play_first_turn(game, FIGURE_SEED)
        replayed = play_actions(game, FIGURE_SEED, [a for _, a in _prefix_chance(game, steps)])
        assert replayed.scores() == state.scores()
        assert len(turn.steps) == len(steps) > 0
        labels = Labels(spec, locale)
        for seat, score in enumerate(replayed.scores()):
            assert any(line.startswith(f"{labels.seat(seat)}: {labels.number(score)} ") for line in turn.scores)
        markdown = built(folder, locale).rulebook.markdown.replace("\\", "")
        for index, step in enumerate(turn.steps, start=1):
            assert f"{index}. {step}." in markdown


def _prefix_chance(game: Game, steps: list[tuple[State, int]]) -> list[tuple[State, int]]:
    """The actions from the initial state: chance steps before the first decision were drawn by the same seed."""
    rng = random.Random(FIGURE_SEED)
    state = game.new_initial_state(FIGURE_SEED)
    before = []
    while state.is_chance_node():
        action = state.sample_chance(rng)
        before.append((state.clone(), action))
        state.apply_action(action)
    return before + steps


@pytest.mark.parametrize("folder", GAMES, ids=[g.name for g in GAMES])
def test_every_action_is_said_in_portuguese(folder: Path) -> None:
    """Over whole random games, no action of any family falls back to the English replay line in pt_BR."""
    spec = _spec(folder)
    figures = figures_for(spec)
    assert figures is not None and figures.describe is not None
    labels = Labels(spec, "pt_BR")
    words: Words = labels.words()
    rng = random.Random(7)
    seen = 0
    for players in sorted({s.players for s in spec.setups}):
        for seed in range(2):
            state = make_game(spec, players).new_initial_state(seed)
            while not state.is_terminal():
                action = state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions())
                said = figures.describe(state, action, words)
                assert said != state.action_to_string(action), said
                assert "P1" not in said and "Player" not in said, said
                seen += 1
                state.apply_action(action)
    assert seen > 20


def test_figures_are_the_same_on_every_build() -> None:
    spec = _spec(ROOT / "specs" / "keramikos")
    first, second = rulebook_figures(spec, "en"), rulebook_figures(spec, "en")
    assert first.context() == second.context()
    assert first.scenes() == second.scenes()


SPATIAL = [ROOT / "specs" / "ceramus", ROOT / "specs" / "ceratopsians"]


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("folder", SPATIAL, ids=[g.name for g in SPATIAL])
def test_scored_positions_print_the_engines_scores(folder: Path, locale: str) -> None:
    """The scores under a scored position are its state's, and in the PDF and the Markdown of the rulebook."""
    spec = _spec(folder)
    figures = figures_for(spec)
    assert figures is not None and figures.positions is not None
    labels = Labels(spec, locale)
    positions = figures.positions(make_game(spec, 2), FIGURE_SEED, labels.words())
    shown = rulebook_figures(spec, locale).positions
    assert len(shown) == len(positions) > 0
    book = built(folder, locale)
    for position, figure in zip(positions, shown):
        expected = [f"{labels.seat(i)}: {labels.number(v)} " for i, v in enumerate(position.state.scores())]
        assert [s.startswith(e) for s, e in zip(figure.scores, expected)] == [True] * len(expected)
        assert "; ".join(figure.scores) in book.rulebook.markdown
        assert squash(figure.scores[0]) in squash(book.text)


def test_the_mural_counts_add_up_to_the_engines_score() -> None:
    """Ceramus: the tiles on the Mural and in reserve printed under the Mural give the engine's score by the spec's
    own points per tile."""
    spec = _spec(ROOT / "specs" / "ceramus")
    figures = figures_for(spec)
    assert figures is not None and figures.positions is not None
    position = figures.positions(make_game(spec, 2), FIGURE_SEED, Labels(spec, "en").words())[0]
    on, off = spec.numbers["points_per_tile_on_mural"], spec.numbers["points_per_tile_in_reserve"]
    for seat, line in enumerate(position.lines):
        tiles = [int(n) for n in re.findall(r"-?\d+", line.split(":", 1)[1])]
        assert tiles[0] * on + tiles[1] * off == position.state.scores()[seat], line
        assert tiles[0] == on_mural(position.state)[seat]
    assert sum(on_mural(position.state)) > 0


def on_mural(state: object) -> list[int]:
    """Each seat's tiles on the Mural, counted from the cells of the mechanic's slice (not from the figure)."""
    from cardgen.games.ceramus.position import view

    assert isinstance(state, DataState)
    facts = view(state)
    return [sum(1 for owner in facts.owner if owner == seat) for seat in range(facts.n)]


def test_the_displays_add_up_to_the_engines_score() -> None:
    """Ceratopsians: the displays drawn (their pairs counted from the cards' markers, plus a complete display's
    bonus) add up to the score the engine's own display search gives the first player."""
    spec = _spec(ROOT / "specs" / "ceratopsians")
    figures = figures_for(spec)
    assert figures is not None and figures.positions is not None
    position = figures.positions(make_game(spec, 2), FIGURE_SEED, Labels(spec, "en").words())[0]
    totals = [int(line.rsplit("=", 1)[1]) for line in position.lines]
    assert sum(totals) == position.state.scores()[0] > 0
    assert all(re.match(r"Display \d+: \d+ pairs? × \d+ = \d+", line) for line in position.lines)


@pytest.mark.parametrize("folder", GAMES, ids=[g.name for g in GAMES])
def test_every_figure_prints_its_text_at_six_points_or_more(folder: Path) -> None:
    """As the PDF prints them (narrowed to the text width or shortened to fit a page), no figure's text is under
    the project's 6 pt minimum, none is cut short, and everything lies inside the figure."""
    from cardgen.render.extent import ink_box, text_sizes
    from cardgen.rulebook.pdf import FIGURE_MAX_HEIGHT_MM, FIGURE_WIDTH_MM

    spec = _spec(folder)
    for locale in LOCALES:
        for key, scene in rulebook_figures(spec, locale).scenes().items():
            width = min(FIGURE_WIDTH_MM, scene.width_mm)
            if scene.height_mm * width / scene.width_mm > FIGURE_MAX_HEIGHT_MM:
                width = FIGURE_MAX_HEIGHT_MM * scene.width_mm / scene.height_mm
            scale = width / scene.width_mm
            assert min(size for _, size in text_sizes(scene.children)) * scale >= 6.0 - 1e-9, key
            box = ink_box(scene.children)
            assert box is not None and box.right <= scene.width_mm + 0.5 and box.bottom <= scene.height_mm + 0.5, key
            cut = [text for text, _ in text_sizes(scene.children) if text.text.endswith("…")]
            assert cut == [], (key, locale)  # every name and title fits whole


def test_a_changed_component_count_changes_every_seat(tmp_path: Path) -> None:
    """Keramikos with 8 markers a player: every seat's pieces in every diagram say 8, in both languages."""
    folder = copy_spec(tmp_path, ROOT / "specs" / "keramikos")
    edit(folder / "game.yaml", "    count: 10\n", "    count: 8\n")
    spec = _spec(folder)
    for locale, word in (("en", "Player"), ("pt_BR", "Jogador")):
        figures = rulebook_figures(spec, locale)
        name = Labels(spec, locale).source("marker")
        for figure in figures.setup:
            seats = [line for line in figure.lines if line.startswith(word)]
            assert len(seats) == int(figure.id.split("-")[1])
            assert all(f"{name}: 8" in line for line in seats), seats
        assert "10" not in " ".join(line for f in figures.setup for line in f.lines)


@pytest.mark.parametrize("folder", GAMES, ids=[g.name for g in GAMES])
def test_the_worked_turn_starts_from_the_setup_pictured(folder: Path) -> None:
    """The rulebook says the turn starts from the table pictured for its player count: it is that very state."""
    spec = _spec(folder)
    turn = rulebook_figures(spec, "en").turn
    assert turn is not None
    setup_state = make_game(spec, turn.players).new_initial_state(FIGURE_SEED)
    _, steps = play_first_turn(make_game(spec, turn.players), FIGURE_SEED)
    assert steps[0][0].fingerprint() == setup_state.fingerprint()


def test_the_markdown_shows_each_figure_as_an_svg_beside_it(tmp_path: Path) -> None:
    """A built rulebook writes every figure as an SVG per language, and its Markdown shows each one."""
    folder = ROOT / "specs" / "mausoleum-guardians"
    spec = _spec(folder)
    written = build_rulebooks(spec, tmp_path, ["en", "pt_BR"], ["a4"], folder, None)
    svgs = sorted(p.name for p in written if p.suffix == ".svg")
    for locale in LOCALES:
        figures = rulebook_figures(spec, locale)
        ids = [f.id for f in figures.setup] + ["turn"]
        markdown = (tmp_path / spec.id / f"{spec.id}-rules-{locale}.md").read_text(encoding="utf-8")
        for figure_id in ids:
            name = f"{spec.id}-rules-{locale}-{figure_id}.svg"
            assert name in svgs and f"(<{name}>)" in markdown
        svg = (tmp_path / spec.id / f"{spec.id}-rules-{locale}-setup-4.svg").read_text(encoding="utf-8")
        assert ("Player 4" if locale == "en" else "Jogador 4") in svg
        four = next(f for f in figures.setup if f.id == "setup-4")
        pile = re.search(r"\d+", four.lines[0])
        assert pile is not None and f">{pile.group(0)}<" in svg  # the draw pile's count, drawn on its top card


def test_a_rulebook_with_figures_builds_byte_identical(tmp_path: Path) -> None:
    """Seeded figures: two builds of a game's rulebook write the same bytes, PDFs and SVGs alike."""
    folder = ROOT / "specs" / "ceratopsians"
    spec = _spec(folder)
    first = build_rulebooks(spec, tmp_path / "a", ["pt_BR"], ["a4"], folder, None)
    second = build_rulebooks(spec, tmp_path / "b", ["pt_BR"], ["a4"], folder, None)
    assert [p.name for p in first] == [p.name for p in second]
    assert any(p.suffix == ".svg" for p in first)
    for a, b in zip(first, second):
        assert a.read_bytes() == b.read_bytes(), a.name
