"""`cardgen new`: the scaffold validates and builds as it is, and never overwrites anything."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardgen.cli.app import app
from cardgen.findings import InputError
from cardgen.scaffold import DEFAULT_KIND, KINDS, SCHEMA_FILE, create_game, title_from_id
from cardgen.spec.load import load_spec


def run(*args: str) -> tuple[int, str, str]:
    """Invoke the app in this process; InputError maps to exit 2 as main() does."""
    result = CliRunner().invoke(app, list(args))
    if isinstance(result.exception, InputError):
        return 2, result.stdout, result.exception.render()
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    specs = tmp_path_factory.mktemp("repo") / "specs"
    code, out, err = run("new", "gem-market", "--dir", str(specs))
    assert code == 0, out + err
    assert "created" in out and "layouts/cards.yaml" in out
    return specs / "gem-market"


def test_scaffold_files(game: Path) -> None:
    assert sorted(p.relative_to(game).as_posix() for p in game.rglob("*") if p.is_file()) == [
        "RULEBOOK.md",
        "cards.csv",
        "game.yaml",
        "layouts/cards.yaml",
    ]
    first = (game / "game.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema=")
    schema = (game / first.split("$schema=", 1)[1]).resolve()
    assert schema == SCHEMA_FILE.resolve() and schema.is_file()


def test_scaffold_spec_content(game: Path) -> None:
    loaded = load_spec(game)
    assert loaded.findings == [] and loaded.spec is not None
    spec = loaded.spec
    assert spec.id == "gem-market" and spec.title == {"en": "Gem Market", "pt_BR": "Gem Market"}
    assert spec.locales == ["en", "pt_BR"]
    (deck,) = spec.decks
    assert deck.cards_file == "cards.csv"
    assert sum(card.copies for card in deck.cards) == 24
    assert {card.id for card in deck.cards if card.effect} == {"draw-two", "encore"}
    assert [s.players for s in spec.setups] == list(range(spec.players.min, spec.players.max + 1))
    assert len(spec.clarifications) == 2 and spec.rules_text.overview["pt_BR"]
    assert spec.rules_data is not None and set(spec.rules_data.effects) == {"draw_two", "encore"}


def test_scaffold_validates_clean_but_for_the_licence_warning(game: Path) -> None:
    code, out, err = run("validate", str(game))
    assert code == 0, out + err
    # the one warning is explained in game.yaml: no licence is chosen yet (redistribution: unknown)
    assert out.count(" warning: ") == 1 and " CG130 warning: " in out
    assert out.rstrip().endswith("1 spec(s) checked: 0 error(s), 1 warning(s)")
    assert "CG130" in (game / "game.yaml").read_text(encoding="utf-8")


def test_scaffold_builds(game: Path, tmp_path: Path) -> None:
    out_dir = tmp_path / "out"
    code, out, err = run("build", str(game), "--out", str(out_dir), "--paper", "a4")
    assert code == 0, out + err
    built = out_dir / "gem-market"
    faces = sorted(p.name for p in (built / "cards").glob("*.svg"))
    assert faces == ["cards-back.svg", "cards-diamond.svg", "cards-draw-two.svg", "cards-emerald.svg", "cards-encore.svg", "cards-ruby.svg", "cards-sapphire.svg"]
    assert (built / "gem-market-print-a4.pdf").stat().st_size > 1000
    # the scaffold's own layout was used: the points badge is drawn on gems, the rules text on actions
    assert "Lucky find" in (built / "cards" / "cards-draw-two.svg").read_text(encoding="utf-8")


def test_refuses_an_existing_folder(game: Path) -> None:
    before = (game / "game.yaml").read_text(encoding="utf-8")
    code, out, err = run("new", "gem-market", "--dir", str(game.parent))
    assert code == 2
    assert out == "" and len(err.strip().splitlines()) == 1
    assert "already exists" in err and "never overwrites" in err
    assert (game / "game.yaml").read_text(encoding="utf-8") == before


def test_refuses_an_existing_empty_folder(tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()
    with pytest.raises(InputError, match="already exists"):
        create_game("taken", tmp_path)
    assert list((tmp_path / "taken").iterdir()) == []
    assert [p.name for p in tmp_path.iterdir()] == ["taken"]  # no staging folder left behind


@pytest.mark.parametrize("name", ["Gem", "my game", "_x", "../escape", "a" * 65, "jogo_á"])
def test_refuses_invalid_ids(tmp_path: Path, name: str) -> None:
    code, out, err = run("new", name, "--dir", str(tmp_path))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "not a valid game id" in err
    assert list(tmp_path.iterdir()) == []


def test_title_from_id() -> None:
    assert title_from_id("gem-market") == "Gem Market"
    assert title_from_id("dice_2") == "Dice 2"


# --- kinds: every scaffold is a game `cardgen check` plays at once, from rules data alone -------------------


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_kind_validates_and_plays(tmp_path: Path, kind: str) -> None:
    code, out, err = run("new", "my-game", "--dir", str(tmp_path), "--kind", kind)
    assert code == 0, out + err
    game = tmp_path / "my-game"
    spec = load_spec(game).spec
    assert spec is not None and spec.rules_data is not None, "the scaffold carries its play as rules data"
    code, out, err = run("validate", str(game))
    assert code == 0, out + err
    assert " error(s)" in out and "0 error(s)" in out
    playouts = 12
    code, out, err = run(
        "check", str(game), "--playouts", str(playouts), "--skill-games", "2", "--mcts-budget", "4",
        "--jobs", "1", "--format", "json", "--out", str(tmp_path / "out"), "--quiet",
    )
    assert code == 0, out + err
    report = json.loads(out)
    assert [c["players"] for c in report["counts"]] == list(range(spec.players.min, spec.players.max + 1))
    for count in report["counts"]:
        metrics = count["metrics"]
        assert metrics["playouts"] == playouts and metrics["completed"] == playouts
        assert metrics["dead_ends"] == 0 and metrics["errors"] == 0 and metrics["timeouts"] == 0
        assert metrics["duration_mean"] > count["players"], "every seat had a turn"
        assert metrics["coverage"], "the report says which options were taken"
        assert {rung["strong"] for rung in count["skill"]} >= {"greedy"}, "the full report: the skill ladder ran"
    assert not [f for f in report["findings"] if f["severity"] == "error"]


def test_the_kinds_the_issue_names_are_scaffolded() -> None:
    assert {"trick-taking", "set-collection", "drafting", "push-your-luck"} <= set(KINDS)


def test_trick_taking_scaffold_plays_tricks_with_the_turned_up_trump(tmp_path: Path) -> None:
    """Every trick of the trick-taking scaffold goes to the highest trump (the suit of the card turned up after the
    deal), else to the highest card of the suit led; each seat scores its tricks plus the lanterns' points it took."""
    import random

    from cardgen.engine.core import make_game
    from cardgen.engine.interpreter import DataGame

    spec = load_spec(create_game("tricky", tmp_path, "trick-taking")).spec
    assert spec is not None and spec.rules_data is not None and spec.rules_data.tricks is not None
    trumped = 0
    for setup in spec.setups:
        players, hand = setup.players, setup.deal["cards"]
        game = make_game(spec, players)
        assert isinstance(game, DataGame)
        index = game.tables.zone_index
        suit, rank, points = (game.tables.field_values[name] for name in ("suit", "rank", "points"))
        for seed in range(10):
            rng = random.Random(seed)
            s = game.new_initial_state(seed)
            (turned,) = s.z[index["trump_spot"]]
            trump = suit[turned]
            tricks_won = [0] * players
            plays = 0
            while not s.is_terminal():
                action = rng.choice(s.legal_actions())
                card = action % game.width
                trick = s.z[index["trick"]]
                if trick:  # following: a seat holding the suit led plays one
                    led = suit[trick[0]]
                    holds_led = any(suit[d] == led for d in s.z[index["hand"] + s.seat])
                    assert not holds_led or suit[card] == led
                if len(trick) == players - 1:
                    played = [(seat, suit[d], rank[d]) for seat, d in zip(s.trick_seats, trick)] + [(s.seat, suit[card], rank[card])]
                    trumps = [c for c in played if c[1] == trump]
                    winner = max(trumps or [c for c in played if c[1] == played[0][1]], key=lambda c: c[2])[0]
                    trumped += bool(trumps) and played[0][1] != trump
                    tricks_won[winner] += 1
                    s.apply_action(action)
                    assert s.is_terminal() or s.seat == winner, "the winner leads the next trick"
                else:
                    s.apply_action(action)
                plays += 1
            assert plays == players * hand, "every seat plays its whole hand, one card to each trick"
            assert s.z[index["trump_spot"]] == [turned], "nobody takes the turned-up card"
            lanterns = [sum(points[d] for d in s.z[index["taken"] + seat]) for seat in range(players)]
            assert s.scores() == [won + lit for won, lit in zip(tricks_won, lanterns)]
    assert trumped > 0, "the playouts trumped a trick led in another suit"


def test_unknown_kind_is_refused(tmp_path: Path) -> None:
    code, out, err = run("new", "my-game", "--dir", str(tmp_path), "--kind", "bidding")
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "not a kind" in err and "set-collection" in err and "trick-taking" in err
    assert list(tmp_path.iterdir()) == []


def test_default_kind_is_set_collection(tmp_path: Path) -> None:
    plain = create_game("plain", tmp_path / "a")
    chosen = create_game("plain", tmp_path / "b", DEFAULT_KIND)
    assert DEFAULT_KIND == "set-collection"
    for name in ("game.yaml", "cards.csv", "layouts/cards.yaml", "RULEBOOK.md"):
        assert (plain / name).read_text(encoding="utf-8") == (chosen / name).read_text(encoding="utf-8")


def test_help_names_every_kind() -> None:
    code, out, _ = run("new", "--help")
    assert code == 0
    compact = "".join(ch for ch in out if not ch.isspace() and ch != "│")  # help may wrap inside its box
    for kind in KINDS:
        assert kind in compact
