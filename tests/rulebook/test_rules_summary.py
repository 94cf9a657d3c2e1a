"""The rulebook's generated rules: setup, turn, card effects, end and scoring from a spec's rules data."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any, Union, get_args

import pytest

from cardgen.rulebook.build import make_rulebook
from cardgen.rulebook.i18n import read_catalog, po_path, translations
from cardgen.rulebook.rules_phrases import GENDERED, GENDERS
from cardgen.rulebook.rules_summary import EFFECT_PHRASES, SCORING_PHRASES, SETUP_PHRASES, RulesSummary, rules_summary
from cardgen.rulebook.rules_words import ExpressionText, Phrasebook, kind_of
from cardgen.spec.models import Spec
from cardgen.spec.rules_data import Effect, RulesModel, Scoring, SetupStep
from cardgen.validate.prose import numbers_in
from cardgen.catalogue import validate_folder

from .conftest import ROOT, built, copy_spec, edit, load_clean, squash

CRAZY_EIGHTS = ROOT / "specs" / "crazy-eights"
LOCALES = ("en", "pt_BR")


def summary_of(spec: Spec, locale: str) -> dict[str, Any]:
    summary = rules_summary(spec, locale, translations(locale))
    assert summary is not None
    return summary


def all_text(summary: dict[str, Any]) -> str:
    parts = list(summary["setup"]) + list(summary["end"])
    for step in summary["turn"]:
        parts.append(step["title"])
        parts += [f"{option['name']}: {option['text']}" for option in step["options"]]
    parts += list(summary["tricks"])
    parts += [f"{effect['cards']}: {effect['text']}" for effect in summary["card_effects"]]
    return "\n".join(parts)


def crazy_eights() -> Spec:
    spec = load_clean(CRAZY_EIGHTS)
    assert spec is not None
    return spec


def test_a_spec_without_rules_data_has_no_generated_rules() -> None:
    spec = load_clean(ROOT / "tests" / "rulebook" / "fixtures" / "lantern-market")
    assert spec is not None and spec.rules_data is None
    assert rules_summary(spec, "en", translations("en")) is None
    assert "Setup, Step by Step" not in make_rulebook(spec, "en").markdown


@pytest.mark.parametrize("locale", LOCALES)
def test_every_setup_step_and_option_appears(locale: str) -> None:
    spec = crazy_eights()
    rules = spec.rules_data
    assert rules is not None
    summary = summary_of(spec, locale)
    # One sentence per setup step, then who starts (the counters of Crazy Eights start at zero).
    assert len(summary["setup"]) == len(rules.setup) + 1
    names = [option["name"] for step in summary["turn"] for option in step["options"]]
    assert names == [option.name[locale][:1].upper() + option.name[locale][1:] for step in rules.turn for option in step.options if option.name]
    assert [effect["cards"] for effect in summary["card_effects"]] == [{"en": "Wild eight", "pt_BR": "Oito curinga"}[locale]]
    md = make_rulebook(spec, locale, CRAZY_EIGHTS).markdown
    for line in summary["setup"] + summary["end"]:
        assert line in md
    for name in names:
        assert f"**{name}:**" in md


def test_english_sentences_name_the_spec_and_its_numbers() -> None:
    text = all_text(summary_of(crazy_eights(), "en"))
    assert "Shuffle the Standard deck (52 cards) and put them face down as the stock." in text
    assert "Deal cards from the stock to each player's hand: 7 cards with 2 players and 5 cards with 3 to 5 players." in text
    assert "Turn the top card of the stock face up onto the discard pile." in text
    assert "The suit to follow is the suit of the top card of the discard pile." in text
    assert "Only when the stock is not empty and you have fewer than 3 draws this turn." in text
    assert "You may choose it when the card is of type “Wild eight”, the card's suit is the suit to follow, or the card's rank is the rank of the top card of the discard pile." in text
    assert "Wild eight: Choose the suit to follow: Spades, Hearts, Diamonds, or Clubs." in text
    assert "The game ends as soon as a player's hand is empty." in text
    assert "Each player loses the total penalty points of the cards left in their hand." in text


def test_portuguese_sentences_agree_with_the_genders_of_the_names() -> None:
    text = all_text(summary_of(crazy_eights(), "pt_BR"))
    assert "Distribua cartas do monte para a mão de cada jogador: 7 cartas com 2 jogadores e 5 cartas com 3 a 5 jogadores." in text
    assert "Vire a carta do topo do monte para cima, sobre a pilha de descarte." in text
    assert "Só quando o monte não está vazio e você tem menos de 3 compras neste turno." in text
    assert "Aumente as suas compras neste turno em 1." in text
    assert "O jogo acaba assim que a mão de um jogador está vazia." in text


@pytest.mark.parametrize("locale", LOCALES)
def test_the_text_follows_the_spec_numbers(tmp_path: Path, locale: str) -> None:
    """Change a number and a deal in a copy of the spec: the generated text in both languages changes with them."""
    before = make_rulebook(crazy_eights(), locale, CRAZY_EIGHTS).markdown
    folder = copy_spec(tmp_path, CRAZY_EIGHTS)
    edit(folder / "game.yaml", "  max_draws: 3", "  max_draws: 4")
    edit(folder / "game.yaml", "{players: 2, deal: {standard: 7}}", "{players: 2, deal: {standard: 6}}")
    result = validate_folder(folder, ["static"])
    assert not result.has_errors and result.loaded is not None and result.loaded.spec is not None
    after = make_rulebook(result.loaded.spec, locale, folder).markdown
    old = {"en": ("fewer than 3 draws", "7 cards with 2 players"), "pt_BR": ("menos de 3 compras", "7 cartas com 2 jogadores")}[locale]
    new = {"en": ("fewer than 4 draws", "6 cards with 2 players"), "pt_BR": ("menos de 4 compras", "6 cartas com 2 jogadores")}[locale]
    for phrase in old:
        assert phrase in before and phrase not in after
    for phrase in new:
        assert phrase in after and phrase not in before


def test_a_deal_the_same_for_every_player_count_is_one_number(tmp_path: Path) -> None:
    folder = copy_spec(tmp_path, CRAZY_EIGHTS)
    edit(folder / "game.yaml", "{players: 2, deal: {standard: 7}}", "{players: 2, deal: {standard: 5}}")
    result = validate_folder(folder, ["static"])
    assert result.loaded is not None and result.loaded.spec is not None
    assert summary_of(result.loaded.spec, "en")["setup"][1] == "Deal 5 cards from the stock to each player's hand."
    assert summary_of(result.loaded.spec, "pt_BR")["setup"][1] == "Distribua 5 cartas do monte para a mão de cada jogador."


def test_both_languages_state_the_same_numbers() -> None:
    """What CG146 asks of a spec's prose holds for the generated text: every section says the same numbers in both languages."""
    spec = crazy_eights()
    summaries = {locale: summary_of(spec, locale) for locale in LOCALES}

    def numbers(locale: str, lines: list[str]) -> Counter[int]:
        return Counter(value for line in lines for value, _, _ in numbers_in(line, locale))

    for key in ("setup", "end"):
        assert numbers("en", summaries["en"][key]) == numbers("pt_BR", summaries["pt_BR"][key]), key
    for en_step, pt_step in zip(summaries["en"]["turn"], summaries["pt_BR"]["turn"]):
        for en_option, pt_option in zip(en_step["options"], pt_step["options"]):
            assert numbers("en", [en_option["text"]]) == numbers("pt_BR", [pt_option["text"]])


def test_crazy_eights_validates_clean_with_its_names() -> None:
    result = validate_folder(CRAZY_EIGHTS, ["static", "i18n"])
    assert [f"{f.code} {f.message}" for f in result.findings] == []


def test_rules_names_are_checked_like_any_localised_text(tmp_path: Path) -> None:
    """Zone and option names are LocalText: a missing locale is CG120, and a glossary term they use must be translated (CG148)."""
    folder = copy_spec(tmp_path, CRAZY_EIGHTS)
    edit(folder / "game.yaml", "name: {en: draw a card, pt_BR: comprar uma carta}", "name: {en: draw a card}")
    edit(folder / "game.yaml", "strings:\n", "glossary:\n  - {en: stock, pt_BR: monte}\nstrings:\n")
    result = validate_folder(folder, ["static"])
    codes = [(f.code, f.path) for f in result.findings]
    assert any(code == "CG120" and "options" in path for code, path in codes), codes
    assert not any(code in ("CG146", "CG147", "CG148") for code, _ in codes), codes


def test_the_pdf_prints_the_generated_sections() -> None:
    text = squash(built(CRAZY_EIGHTS, "pt_BR").text)
    for heading in ("Preparação, passo a passo", "Um turno num relance", "Efeitos das cartas", "Fim e pontuação num relance"):
        assert heading in text
    assert "Só quando o monte não está vazio" in text


# --- the expression renderer ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "card", "owner", "expected"),
    [
        ("count(stock) > 0 and draws < numbers.max_draws", False, "me", "the stock is not empty and you have fewer than 3 draws this turn"),
        ("0 < count(stock)", False, "me", "the stock is not empty"),
        ("not count(stock) > 0", False, "me", "the stock is empty"),
        ("count(hand) == 0", False, "a_player", "a player's hand is empty"),
        ("count(hand) >= 2", False, "me", "the number of cards in your hand is at least 2"),
        ("(card.rank == 1 or card.rank == 13) and card.suit == suit", True, "me",
         "(the card's rank is 1 or the card's rank is 13) and the card's suit is the suit to follow"),
        ("card.suit in ['hearts', 'spades']", True, "me", "the card's suit is Hearts or Spades"),
        ("card.suit != 'hearts'", True, "me", "the card's suit is not Hearts"),
        ("total(hand, points) > numbers.max_draws * 2", False, "me", "the total penalty points of the cards in your hand is greater than 6"),
        ("draws + count(hand) < players", False, "me", "your draws this turn plus the number of cards in your hand is less than the number of players"),
        ("true", False, "me", "“true”"),
        # a negated group is said part by part, with the other connective (never "it is not so that A and B")
        ("not (count(stock) > 0 and count(hand) == 0)", False, "me", "the stock is empty or your hand is not empty"),
        ("not (count(stock) > 0 or (count(hand) == 0 and draws < 2))", False, "me",
         "the stock is empty and (your hand is not empty or you have at least 2 draws this turn)"),
    ],
)
def test_expressions_read_as_sentences(source: str, card: bool, owner: str, expected: str) -> None:
    spec = crazy_eights()
    assert spec.rules_data is not None
    book = Phrasebook(spec, spec.rules_data, "en", translations("en"))
    assert ExpressionText(book, owner).condition(source, card=card) == expected


def test_an_expression_that_does_not_parse_is_shown_as_its_formula() -> None:
    spec = crazy_eights()
    assert spec.rules_data is not None
    book = Phrasebook(spec, spec.rules_data, "pt_BR", translations("pt_BR"))
    assert ExpressionText(book).condition("no_such_counter > 1") == "“no_such_counter > 1”"


# --- kinds with phrases, and the fallback for the others -----------------------------------------------


def union_kinds(union: Any) -> set[str]:
    kinds: set[str] = set()
    for member in get_args(union):
        if get_args(member) and all(isinstance(a, str) for a in get_args(member)):
            kinds.update(get_args(member))  # a Literal of bare words
        elif isinstance(member, type) and issubclass(member, RulesModel):
            field_name, info = next(iter(member.model_fields.items()))
            kinds.add(info.alias or field_name)
    return kinds


def test_the_kinds_that_have_phrases() -> None:
    """The lead's list to extend: every other kind of the models reads as the generic fallback sentence."""
    assert sorted(SETUP_PHRASES) == ["deal", "mechanic", "move", "repeat", "set", "set_aside", "shuffle", "shuffle_back"]
    assert sorted(EFFECT_PHRASES) == ["add", "arrange", "choose", "extra_turn", "mechanic", "move", "reverse", "roll", "set", "skip", "steal", "swap", "transfer"]
    assert sorted(SCORING_PHRASES) == ["all_or_nothing", "counter", "majority", "mechanic", "one_of_each", "sets", "sum"]
    missing = {
        "setup": sorted(union_kinds(SetupStep) - set(SETUP_PHRASES)),
        "effects": sorted(union_kinds(Effect) - set(EFFECT_PHRASES)),
        "scoring": sorted(union_kinds(Scoring) - set(SCORING_PHRASES)),
    }
    print(f"kinds without a phrase of their own (they read as the fallback sentence): {missing}")


class JuggleSpec(RulesModel):
    zone: str
    count: int = 1


class JuggleEffect(RulesModel):
    """An effect kind the phrases do not know (as a new vocabulary word would be before its phrase is written)."""

    juggle: JuggleSpec


@pytest.mark.parametrize("locale", LOCALES)
def test_an_unknown_kind_reads_as_the_fallback_sentence(locale: str) -> None:
    spec = crazy_eights()
    assert spec.rules_data is not None
    summary = RulesSummary(spec, spec.rules_data, locale, translations(locale))
    effect = JuggleEffect(juggle=JuggleSpec(zone="hand", count=2))
    assert kind_of(effect) == "juggle"
    expected = {"en": 'Rule “juggle”: {"zone": "hand", "count": 2}.', "pt_BR": 'Regra “juggle”: {"zone": "hand", "count": 2}.'}[locale]
    assert summary.effect(effect, card=False) == expected
    assert summary.fallback("new_word") == expected.replace('juggle”: {"zone": "hand", "count": 2}', 'new_word”: new_word')


def test_every_gendered_phrase_is_in_the_catalog_for_every_gender() -> None:
    catalog = read_catalog(po_path("pt_BR"), "pt_BR")
    have = {(m.context, m.id) for m in catalog if m.id}
    for message in GENDERED:
        for context in (None, *GENDERS):
            assert (context, message) in have, (context, message)


def test_sentences_start_with_a_capital() -> None:
    for locale in LOCALES:
        summary = summary_of(crazy_eights(), locale)
        lines = summary["setup"] + summary["end"] + [o["text"] for s in summary["turn"] for o in s["options"]]
        for line in lines:
            assert re.match(r"[A-ZÀ-Ý]", line), line


EVERY_KIND: dict[str, Any] = {
    "zones": {
        "stock": {"visibility": "hidden", "name": {"en": "stock", "pt_BR": "monte"}, "gender": {"pt_BR": "masculine"}},
        "row": {"visibility": "public", "name": {"en": "row", "pt_BR": "fileira"}, "gender": {"pt_BR": "feminine"}},
        "hand": {"per_seat": True, "visibility": "owner", "ordered": False, "name": {"en": "hand", "pt_BR": "mão"}, "gender": {"pt_BR": "feminine"}},
        "won": {"per_seat": True, "name": {"en": "won cards", "pt_BR": "cartas ganhas"}, "gender": {"pt_BR": "feminine plural"}},
    },
    "counters": {
        "chips": {"start": "numbers.max_draws", "name": {"en": "chips", "pt_BR": "fichas"}, "gender": {"pt_BR": "feminine plural"}},
        "pot": {"per_seat": False, "name": {"en": "pot", "pt_BR": "pote"}, "gender": {"pt_BR": "masculine"}},
    },
    "variables": {"suit": {"values": "suit"}},
    "first_player": "random",
    "setup": [
        {"shuffle": {"deck": "standard", "to": "row"}},
        {"deal": {"from": "row", "to": "stock", "count": 2}},
        {"deal": {"from": "row", "to": "hand", "count": "players + 1"}},
        {"move": {"from": "row", "to": "stock", "count": 3}},
    ],
    "turn": [
        {"id": "first", "name": {"en": "Pay or take", "pt_BR": "Pagar ou levar"}, "options": [
            {"id": "pay", "when": "chips > 0", "do": [{"add": {"counter": "chips", "amount": -1}}, {"add": {"counter": "pot", "amount": 1}}], "then": "second"},
            {"id": "take", "do": [{"transfer": {"from": "pot", "to": "chips"}}, {"move": {"from": "row", "to": "won", "count": "all"}}]},
        ]},
        {"id": "second", "options": [
            {"id": "play", "card": {"from": "hand", "to": "row"}, "do": ["reverse", {"skip": 2}, "extra_turn"]},
            {"id": "give", "do": [{"move": {"from": "stock", "to": "hand", "who": "each"}}, {"move": {"from": "hand", "to": "won", "who": "next", "count": 2}}], "then": "again"},
            {"id": "choose", "do": [{"choose": "suit"}]},
        ]},
    ],
    "end": {"table": "count(row) == 0", "turn_limit": 40},
    "scoring": [{"sum": {"zone": "won", "field": "rank", "runs": "lowest"}}, {"counter": "chips", "sign": -1}],
}


@pytest.mark.parametrize("locale", LOCALES)
def test_every_phrased_kind_reads_as_a_sentence(locale: str) -> None:
    """Rules data using every kind with a phrase (beside the crazy-eights spec's decks): no fallback, no placeholder left."""
    from cardgen.spec.rules_data import RulesData

    spec = crazy_eights()
    rules = RulesData.model_validate(EVERY_KIND, strict=False)
    summary = RulesSummary(spec, rules, locale, translations(locale)).as_context()
    text = all_text(summary)
    assert "%(" not in text and "“" not in text.replace("“Card Effects”", "").replace("“Efeitos das cartas”", "")
    assert "Rule “" not in text and "Regra “" not in text
    assert len(summary["setup"]) == len(rules.setup) + 2  # the chips' start, then who starts
    expected = {
        "en": [
            "Shuffle the Standard deck (52 cards) and lay them face up as the row.",
            "Deal 2 cards for each player from the row to the stock.",
            "Deal cards from the row to each player's hand: 3 cards with 2 players, 4 cards with 3 players, 5 cards with 4 players, and 6 cards with 5 players.",
            "Move the top 3 cards of the row to the stock.",
            "Each player starts with 3 chips.",
            "Choose at random who starts",
            "Step 1: Pay or take", "Step 2",
            "Only when you have more than 0 chips.", "Lower your chips by 1. Raise the pot by 1. Then go on to step 2.",
            "Add the pot to your chips, and the pot goes back to zero. Move every card of the row to your won cards. Your turn ends.",
            "The order of play changes direction. The next 2 players miss their turn. You take another turn after this one.",
            "Move the top card of the stock to each player's hand. Move 2 cards of the next player's hand to the next player's won cards. Then choose again at this step.",
            "Choose the suit: Spades, Hearts, Diamonds, or Clubs.",
            "The game ends as soon as the row is empty.", "The game ends after 40 turns.",
            "Each player scores the total rank of the cards in their won cards. In a run of consecutive values, only the lowest counts.",
            "Each player takes their chips off their score.", "The highest score wins.",
        ],
        "pt_BR": [
            "Embaralhe as 52 cartas (Baralho comum) e disponha-as viradas para cima como a fileira.",
            "Distribua 2 cartas por jogador da fileira para o monte.",
            "Distribua cartas da fileira para a mão de cada jogador: 3 cartas com 2 jogadores, 4 cartas com 3 jogadores, 5 cartas com 4 jogadores e 6 cartas com 5 jogadores.",
            "Passe as 3 cartas do topo da fileira para o monte.",
            "Cada jogador começa com 3 fichas.",
            "Etapa 1: Pagar ou levar",
            "Diminua as suas fichas em 1. Aumente o pote em 1. Depois, siga para a etapa 2.",
            "Passe todo o valor do pote para as suas fichas, e o pote volta a zero. Passe todas as cartas da fileira para as suas cartas ganhas. Seu turno acaba.",
            "Passe a carta do topo do monte para a mão de cada jogador. Passe 2 cartas da mão do próximo jogador para as cartas ganhas do próximo jogador.",
            "O jogo acaba assim que a fileira está vazia.", "O jogo acaba depois de 40 turnos.",
            "Cada jogador desconta as suas fichas da sua pontuação.", "A maior pontuação vence.",
        ],
    }[locale]
    for phrase in expected:
        assert phrase in text, phrase


@pytest.mark.parametrize("locale", LOCALES)
def test_the_spec_setup_sections_are_printed(locale: str) -> None:
    """`rules_text.setup` sections print in the Setup chapter, before the generated steps (they were left out before)."""
    spec = crazy_eights()
    md = make_rulebook(spec, locale, CRAZY_EIGHTS).markdown
    setup_chapter = md.split("\n## ")[[part.split("\n")[0] for part in md.split("\n## ")].index({"en": "Setup", "pt_BR": "Preparação"}[locale])]
    for section in spec.rules_text.setup:
        assert f"### {section.title[locale]}" in setup_chapter
        assert " ".join(section.text[locale].split()).replace("{deck.standard}", "52")[:80] in setup_chapter
    assert setup_chapter.index(f"### {spec.rules_text.setup[0].title[locale]}") < setup_chapter.index({"en": "### Setup, Step by Step", "pt_BR": "### Preparação, passo a passo"}[locale])


# --- trick taking: Hearts and the trick-taking scaffold read in words ----------------------------------

HEARTS = ROOT / "specs" / "hearts"


def hearts() -> Spec:
    spec = load_clean(HEARTS)
    assert spec is not None
    return spec


def trick_scaffold(tmp_path: Path) -> Spec:
    from cardgen.scaffold import create_game

    spec = load_clean(create_game("tricky", tmp_path, "trick-taking"))
    assert spec is not None
    return spec


@pytest.mark.parametrize("locale", LOCALES)
def test_trick_games_read_without_a_fallback(tmp_path: Path, locale: str) -> None:
    for spec in (hearts(), trick_scaffold(tmp_path)):
        summary = summary_of(spec, locale)
        text = all_text(summary)
        assert "Rule “" not in text and "Regra “" not in text and "%(" not in text
        assert "“" not in text.replace({"en": "“Tricks”", "pt_BR": "“Vazas”"}[locale], "").replace(
            {"en": "“Card Effects”", "pt_BR": "“Efeitos das cartas”"}[locale], ""
        ), "no expression is left as its formula"
        assert len(summary["tricks"]) >= 5
        md = make_rulebook(spec, locale).markdown
        assert {"en": "#### Tricks", "pt_BR": "#### Vazas"}[locale] in md
        for line in summary["tricks"]:
            assert line in md


def test_hearts_in_english() -> None:
    summary = summary_of(hearts(), "en")
    text = all_text(summary)
    assert (
        "Set aside from the deck into the cards set aside: Two of Diamonds with 3 players, no card with 4 players, "
        "Two of Diamonds and Two of Spades with 5 players, and Two of Diamonds, Three of Diamonds, Two of Spades, and Three of Spades with 6 players."
    ) in summary["setup"]
    assert summary["setup"][-1].startswith("The first player, in seat order, for whom their hand holds Two of Clubs starts")
    assert summary["tricks"] == [
        "The player leading a trick plays a card for which (the number of tricks played is greater than 0 or the card is Two of Clubs) "
        "and (the card's suit is not Hearts or the number of hearts played is greater than 0) if they hold one, otherwise any card.",
        "Every other player in turn plays a card of the suit led if they hold one.",
        "A player who holds none plays a card for which the number of tricks played is greater than 0 or the card's penalty is 0 "
        "if they hold one, otherwise any card.",
        "When every player has played, the highest card by rank of the suit led wins the trick.",
        "The winner puts the trick into their pile of tricks and leads the next one.",
        "After each trick, as its winner: Raise the number of tricks played by 1.",
    ]
    assert "Which cards you may play, and who wins the trick: see “Tricks”." in text
    assert (
        "Each player loses the total penalty of the cards in their pile of tricks, except when one player took every card with penalty: "
        "that player loses nothing, and every other player loses that total instead."
    ) in summary["end"]


def test_hearts_in_portuguese() -> None:
    summary = summary_of(hearts(), "pt_BR")
    assert summary["setup"][1].startswith("Separe do baralho para as cartas separadas: Dois de Ouros com 3 jogadores, nenhuma carta com 4 jogadores")
    assert "a sua mão tem Dois de Paus" in summary["setup"][-1]
    assert "Cada um dos outros jogadores, na sua vez, joga uma carta do naipe de saída, se tiver uma." in summary["tricks"]
    assert "Quando todos jogaram, a carta mais alta em valor do naipe de saída ganha a vaza." in summary["tricks"]
    assert "Quem ganhou põe a vaza na sua pilha de vazas e abre a seguinte." in summary["tricks"]
    assert any("a penalidade da carta é 0" in line for line in summary["tricks"])
    assert any(line.startswith("Cada jogador perde o total de penalidade das cartas na sua pilha de vazas, exceto") for line in summary["end"])


@pytest.mark.parametrize(
    ("trump", "en", "pt_BR"),
    [
        ("top(trump_spot).suit", "the cards of the suit of the top card of the trump spot", "as cartas do naipe da carta do topo do lugar do trunfo"),
        ("'wave'", "the cards of Wave", "as cartas de Onda"),
    ],
)
def test_the_trump_is_named_as_the_rules_give_it(tmp_path: Path, trump: str, en: str, pt_BR: str) -> None:
    from cardgen.scaffold import create_game

    folder = create_game("tricky", tmp_path, "trick-taking")
    edit(folder / "game.yaml", "    trump: top(trump_spot).suit", f'    trump: "{trump}"')
    result = validate_folder(folder, ["static"])
    assert not result.has_errors and result.loaded is not None and result.loaded.spec is not None
    for locale, phrase in (("en", en), ("pt_BR", pt_BR)):
        (win,) = [line for line in summary_of(result.loaded.spec, locale)["tricks"] if "trunfo mais alto" in line or "highest trump" in line]
        assert phrase in win, win


def test_the_first_card_played_wins_between_equal_cards_only_when_the_deck_has_them(tmp_path: Path) -> None:
    from cardgen.scaffold import create_game

    folder = create_game("tricky", tmp_path, "trick-taking")
    plain = validate_folder(folder, ["static"]).loaded
    assert plain is not None and plain.spec is not None
    assert "Between equal cards, the one played first wins." not in summary_of(plain.spec, "en")["tricks"]
    edit(folder / "cards.csv", "sun-2,1,plain", "sun-2,2,plain")
    edit(folder / "game.yaml", "{of: cards, count: 36,", "{of: cards, count: 37,")
    doubled = validate_folder(folder, ["static"])
    assert not doubled.has_errors and doubled.loaded is not None and doubled.loaded.spec is not None
    assert "Between equal cards, the one played first wins." in summary_of(doubled.loaded.spec, "en")["tricks"]
    assert "Entre cartas iguais, ganha a que foi jogada primeiro." in summary_of(doubled.loaded.spec, "pt_BR")["tricks"]


def test_a_set_aside_that_reads_the_position_reads_as_its_condition(tmp_path: Path) -> None:
    folder = copy_spec(tmp_path, HEARTS)
    edit(
        folder / "game.yaml",
        "(players in [3, 5, 6] and card.id == '2-diamonds')",
        "(count(aside) == 0 and card.id == '2-diamonds')",
    )
    result = validate_folder(folder, ["static"])
    assert result.loaded is not None and result.loaded.spec is not None
    line = summary_of(result.loaded.spec, "en")["setup"][1]
    assert line.startswith("Set aside from the deck into the cards set aside every card for which (the cards set aside is empty and the card is Two of Diamonds)"), line



def test_a_start_read_from_the_setup_table_is_said_with_each_player_count() -> None:
    """Rather Not's chips come from the setup table's pieces: the sentence gives each count's chips, in both languages."""
    from cardgen.spec.load import load_spec

    loaded = load_spec(Path(__file__).resolve().parents[2] / "specs" / "no-thanks")
    assert loaded.spec is not None
    chips = {setup.players: setup.pieces["chips"] for setup in loaded.spec.setups}
    for locale, word in (("en", "chips"), ("pt_BR", "fichas")):
        summary = rules_summary(loaded.spec, locale, translations(locale))
        assert summary is not None
        line = next(text for text in summary["setup"] if word in text and str(chips[min(chips)]) in text)
        for value in set(chips.values()):
            assert f"{value} {word}" in line, line


def test_a_setup_move_counted_by_the_setup_table_names_each_count(tmp_path: Path) -> None:
    """A count known before play but different per player count reads as the counts, not as a formula."""
    folder = copy_spec(tmp_path, CRAZY_EIGHTS)
    edit(folder / "game.yaml", "    - move: {from: stock, to: discard}", "    - move: {from: stock, to: discard, count: players - 1}")
    spec = load_clean(folder)
    assert spec is not None
    english = summary_of(spec, "en")["setup"]
    assert any("the top card with 2 players, the top 2 cards with 3 players" in line for line in english), english
    portuguese = summary_of(spec, "pt_BR")["setup"]
    assert not any("igual a" in line for line in portuguese), portuguese


# --- a named mechanic's own phrases ----------------------------------------------------------------------

CERAMUS = ROOT / "specs" / "ceramus"


@pytest.mark.parametrize(
    ("locale", "count", "expected"),
    [("en", 1, "add up to 1 tile to the Mural."), ("en", 2, "add up to 2 tiles to the Mural."),
     ("pt_BR", 1, "adicionar até 1 azulejo ao Mural."), ("pt_BR", 3, "adicionar até 3 azulejos ao Mural.")],
)
def test_a_mechanic_phrase_agrees_with_its_number(tmp_path: Path, locale: str, count: int, expected: str) -> None:
    """A counted phrase takes the plural form the spec's number asks for, in each locale (no "tile(s)")."""
    folder = copy_spec(tmp_path, CERAMUS)
    edit(folder / "game.yaml", "add_tile_count: 1", f"add_tile_count: {count}")
    spec = load_clean(folder)
    assert spec is not None
    effects = summary_of(spec, locale)["card_effects"]
    texts = [e["text"] for e in effects]
    assert any(t.endswith(expected) for t in texts), texts
    assert not any("(s)" in t for t in texts), texts


def test_a_negated_mechanic_condition_uses_the_mechanics_negation() -> None:
    """`not mechanic(NAME, CONDITION)` reads with the mechanic's own negative phrase; one it lacks reads "it is not so that"."""
    spec = load_clean(CERAMUS)
    assert spec is not None and spec.rules_data is not None
    book = Phrasebook(spec, spec.rules_data, "en", translations("en"))
    said = ExpressionText(book)
    assert said.condition("not mechanic(ceramus_mural, waiting)") == "no bonus of yours is waiting for its tiles"
    assert said.condition("mechanic(ceramus_mural, waiting)") == "a bonus of yours is waiting for its tiles"
    assert said.condition("not mechanic(ceramus_mural, usable)") == "it is not so that the card's bonus would change something now"


def test_a_step_that_comes_back_to_itself_says_so() -> None:
    """An option whose `then` names its own step reads "take this step again", not "go on to step N" of the same N."""
    spec = load_clean(CERAMUS)
    assert spec is not None
    steps = summary_of(spec, "en")["turn"]
    texts = [o["text"] for step in steps for o in step["options"]]
    assert any(t.endswith("Then take this step again from its start.") for t in texts)
    for number, step in enumerate(steps, start=1):
        for option in step["options"]:
            assert f"go on to step {number}." not in option["text"], option


@pytest.mark.parametrize(
    ("amount", "expected"),
    [
        ("min(1, numbers.cap - tally)", ("1", "numbers.cap")),
        ("min(numbers.cap - tally, 2)", ("2", "numbers.cap")),
        ("min(tally, numbers.cap - tally)", None),  # the step reads the counter itself: no cap to say
        ("min(1, numbers.cap - other)", None),  # room left in another counter
        ("max(1, numbers.cap - tally)", None),
    ],
)
def test_a_capped_raise_is_recognised(amount: str, expected: tuple[str, str] | None) -> None:
    import ast

    from cardgen.rulebook.rules_summary import capped_raise

    found = capped_raise(ast.parse(amount, mode="eval").body, "tally")
    assert (None if found is None else tuple(ast.unparse(n) for n in found)) == expected


def test_a_raise_up_to_a_cap_reads_as_one(tmp_path: Path) -> None:
    """Mausolo's `min(1, sets_per_player - doubled)` reads "by 1, to at most N", never "the smaller of ..."."""
    folder = copy_spec(tmp_path, ROOT / "specs" / "mausoleum-guardians")
    edit(folder / "game.yaml", "mausolo_sets_per_player: 1", "mausolo_sets_per_player: 2")
    spec = load_clean(folder)
    assert spec is not None
    for locale, said in (("en", "by 1, to at most 2."), ("pt_BR", "em 1, até no máximo 2.")):
        texts = [e["text"] for e in summary_of(spec, locale)["card_effects"]]
        assert any(t.endswith(said) for t in texts), texts
        assert not any("smaller" in t or "menor" in t for t in texts), texts


@pytest.mark.parametrize(
    ("count", "expected"),
    [
        ("1 if top(deck).type == 'pottery' else 0", ("top(deck).type == 'pottery'", 1)),
        ("0 if full == 1 else 2", ("not full == 1", 2)),
        ("numbers.n if full == 1 else 0", ("full == 1", "numbers.n")),
        ("1 if full == 1 else 2", None),  # two counts, neither nothing: said as it is
        ("count(hand)", None),
    ],
)
def test_a_count_that_is_nothing_unless_a_condition_holds(count: str, expected: tuple[str, int | str] | None) -> None:
    import ast

    from cardgen.rulebook.rules_summary import guarded_count

    found = guarded_count(ast.parse(count, mode="eval").body)
    assert (None if found is None else (ast.unparse(found[0]), found[1])) == expected


def test_generated_rules_read_as_the_chosen_options_play_and_say_guarded_counts_as_conditions() -> None:
    """No shipped game's generated rules name a rule option (each is folded to the spec's choice, in pile conditions
    too) or say a count as "a number of cards (1 if ... else 0)" (it reads "If ...: move the top card")."""
    import json

    for folder in sorted((ROOT / "specs").iterdir()):
        spec = load_clean(folder)
        if spec is None or spec.rules_data is None:
            continue
        for locale in LOCALES:
            text = json.dumps(summary_of(spec, locale), ensure_ascii=False)
            for said in ("rule option", "opção de regra", "cards (1 if", "cartas (1 se"):
                assert said not in text, (folder.name, locale, said)
    keramikos = load_clean(ROOT / "specs" / "keramikos")
    assert keramikos is not None
    setup = " ".join(summary_of(keramikos, "en")["setup"])
    assert "If the card type of the top card of the deck is Pottery: Move the top card of the deck beneath" in setup
    assert "one at a time" not in setup  # one card moves: no order to say, and no move that stops


def test_a_count_worked_out_in_play_is_closed_before_the_zone_it_comes_from() -> None:
    """A move's count that is a formula stands in brackets, so "of the deck" after it names where the cards come from,
    never the end of the formula ("... minus the markers left this turn of the deck")."""
    keramikos = load_clean(ROOT / "specs" / "keramikos")
    assert keramikos is not None
    for locale, said in (
        ("en", "a number of cards (the number of Marker pieces each player owns minus the number of markers left this turn) of the deck, one at a time"),
        ("pt_BR", "um número de cartas (o número de peças de Marcador de cada jogador menos o número de marcadores que restam neste turno) do baralho, uma de cada vez"),
    ):
        text = all_text(summary_of(keramikos, locale))
        assert said in text, text


def test_the_first_player_sentence_leaves_the_choice_to_the_setup() -> None:
    """`first_player: first` numbers the seats from whoever starts; the generated sentence must not say how that
    player is chosen, or it contradicts a setup that says "roll" (Keramikos) or "at random" (Ceratopsians)."""
    for name in ("keramikos", "ceratopsians"):
        spec = load_clean(ROOT / "specs" / name)
        assert spec is not None and spec.rules_data is not None and spec.rules_data.first_player == "first"
        for locale, said, never in (("en", "as the setup says", "agree on who starts"), ("pt_BR", "como a preparação diz", "combinam quem começa")):
            setup = " ".join(summary_of(spec, locale)["setup"])
            assert said in setup and never not in setup, (name, locale, setup)
