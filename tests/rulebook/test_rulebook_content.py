"""What the rulebook says: counts computed from the spec, placeholders, localised prose."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.numbers import format_decimal

from cardgen.rulebook.build import make_rulebook
from cardgen.rulebook.context import component_total, deck_total
from cardgen.spec.load import load_spec
from cardgen.spec.models import in_locale

from .conftest import LANTERN, SPEC_FOLDERS, SPEC_IDS, built, edit, pdf_text, squash


def lantern_md(locale: str) -> str:
    return built(LANTERN, locale).rulebook.markdown


def test_english_component_list_counts_the_fixture() -> None:
    md = lantern_md("en")
    assert "| Market deck | 42 cards | Goods: 36; Event: 6 |" in md
    assert "| Lantern tile | 18 | Tile; 6 of each kind in “Lantern colours” (Red, Blue, Gold) |" in md
    assert "| Score marker | 4 | Marker; 1 for each player; counted for 4 players;" in md
    assert "| Market dice | 2 dice | 6 sides, numbered from 1 to 6 |" in md


def test_portuguese_component_list_counts_the_fixture() -> None:
    md = lantern_md("pt_BR")
    assert "| Baralho do mercado | 42 cartas | Mercadoria: 36; Evento: 6 |" in md
    assert "| Peça de lanterna | 18 | Peça; 6 de cada tipo em “Cores das lanternas” (Vermelha, Azul, Dourada) |" in md
    assert "| Dados do mercado | 2 dados | 6 faces, numeradas de 1 a 6 |" in md


def test_setup_table_has_a_column_per_player_count() -> None:
    en = lantern_md("en")
    assert "| Number of players | 2 players | 3 players | 4 players |" in en
    assert "| Market deck: cards dealt to each player | 5 | 4 | 4 |" in en
    assert "| Market deck: cards laid face up in the middle | 4 | 4 | 5 |" in en
    assert "| Grid “Stall” (Market deck; columns × rows) | — | — | 3 × 2 |" in en
    pt = lantern_md("pt_BR")
    assert "| Número de jogadores | 2 jogadores | 3 jogadores | 4 jogadores |" in pt
    assert "| Baralho do mercado: cartas distribuídas a cada jogador | 5 | 4 | 4 |" in pt
    assert "| Grade “Barraca” (Baralho do mercado; colunas × linhas) | — | — | 3 × 2 |" in pt


def test_numbers_are_substituted_and_formatted_per_locale() -> None:
    assert "reach 1,200 coins" in lantern_md("en")
    assert "chegar a 1.200 moedas" in lantern_md("pt_BR")
    assert "up to a hand of 7." in lantern_md("en")
    assert "{numbers." not in lantern_md("en") + lantern_md("pt_BR")


def test_effect_and_icon_placeholders() -> None:
    en, pt = lantern_md("en"), lantern_md("pt_BR")
    assert "before the second Storm." in en
    assert "antes da segunda Tempestade." in pt
    assert "Each \\[lantern\\] in your stall is safe." in en
    assert "Cada \\[lanterna\\] na sua barraca" in pt
    assert "{effect:" not in en + pt


def test_special_cards_grouped_by_type_with_copies() -> None:
    en = lantern_md("en")
    assert "#### Event" in en
    assert "**Festival (3 copies):** Every player draws 2 cards. You score 3 points." in en
    assert "**Night Watch:** *Its effect is explained in the rules above.*" in en
    assert "Silk" not in en.split("## Special Cards")[1].split("## Scoring")[0]
    pt = lantern_md("pt_BR")
    assert "**Tempestade (2 cópias):**" in pt


def test_clarifications_tiebreakers_and_credits() -> None:
    en = lantern_md("en")
    assert "**1.** The display is refilled only at the end of each turn, never during it." in en
    assert "**2.** A player above 7 cards discards down at once" in en
    assert "1. **Most lanterns:** The tied player with more lantern tiles wins." in en
    assert "Original game designers: Ana Teste and Bo Exemplo." in en
    assert "Licence: CC BY 4.0. <https://creativecommons.org/licenses/by/4.0/>" in en
    pt = lantern_md("pt_BR")
    assert "Autores do jogo original: Ana Teste e Bo Exemplo." in pt
    assert "*Mercado das Lanternas, de Ana Teste e Bo Exemplo, CC BY 4.0.*" in pt


def test_prose_bullets_become_lists() -> None:
    en = lantern_md("en")
    assert "Sell any goods of one kind from your hand:\n\n- one card scores 1 coin;\n- 3 or more score 5 extra coins." in en


def test_changing_counts_changes_both_languages(lantern_copy: Path) -> None:
    game = lantern_copy / "game.yaml"
    edit(game, "type: goods, copies: 14}", "type: goods, copies: 20}")
    edit(game, "deal: {market: 5}", "deal: {market: 6}")
    edit(game, "count: 6\n", "count: 7\n")
    loaded = load_spec(lantern_copy)
    assert loaded.spec is not None, loaded.findings
    en = make_rulebook(loaded.spec, "en", lantern_copy)
    pt = make_rulebook(loaded.spec, "pt_BR", lantern_copy)
    assert "| Market deck | 48 cards | Goods: 42; Event: 6 |" in en.markdown
    assert "| Baralho do mercado | 48 cartas | Mercadoria: 42; Evento: 6 |" in pt.markdown
    assert "| Lantern tile | 21 |" in en.markdown and "| Peça de lanterna | 21 |" in pt.markdown
    assert "| Market deck: cards dealt to each player | 6 | 4 | 4 |" in en.markdown
    assert "| Baralho do mercado: cartas distribuídas a cada jogador | 6 | 4 | 4 |" in pt.markdown
    from cardgen.rulebook.build import rulebook_pdf

    for rulebook, word in ((en, "48 cards"), (pt, "48 cartas")):
        text = squash(pdf_text(rulebook_pdf(loaded.spec, rulebook, "a4")))
        assert word in text
        assert "42 cards" not in text and "42 cartas" not in text


def test_spec_text_is_escaped_in_markdown(lantern_copy: Path) -> None:
    game = lantern_copy / "game.yaml"
    edit(game, "Each player runs one stall.", "Each player runs one stall & says <hello> *loudly* | twice.")
    loaded = load_spec(lantern_copy)
    assert loaded.spec is not None
    md = make_rulebook(loaded.spec, "en", lantern_copy).markdown
    assert "Each player runs one stall & says \\<hello\\> \\*loudly\\* \\| twice." in md


@pytest.mark.parametrize("folder", SPEC_FOLDERS, ids=SPEC_IDS)
@pytest.mark.parametrize("locale", ["en", "pt_BR"])
def test_every_spec_lists_its_computed_counts(folder: Path, locale: str) -> None:
    result = built(folder, locale)
    spec = result.spec
    if locale not in spec.locales:
        pytest.skip(f"{spec.id} has no {locale}")
    md = result.rulebook.markdown
    card_word = {"en": ("card", "cards"), "pt_BR": ("carta", "cartas")}[locale]
    for deck in spec.decks:
        total = deck_total(deck)
        word = card_word[0] if total == 1 else card_word[1]
        name = deck.name[locale]
        assert f"| {name} | {format_decimal(total, locale=locale)} {word} |" in md
    for component in spec.components:
        total = component_total(spec, component.id)
        assert f"| {component.name[locale]} | {format_decimal(total, locale=locale)} |" in md
    header = "| " + " | ".join(
        [{"en": "Number of players", "pt_BR": "Número de jogadores"}[locale]]
        + [
            f"{s.players} " + ({"en": ("player", "players"), "pt_BR": ("jogador", "jogadores")}[locale][0 if s.players == 1 else 1])
            for s in sorted(spec.setups, key=lambda s: s.players)
        ]
    ) + " |"
    assert header in md
    for clarification in spec.clarifications:
        assert f"**{clarification.number}.**" in md
    assert ", ".join(spec.credits.designers[:1]) in md
    assert in_locale(spec.licence.name, locale) in md


def test_extra_setup_prose_goes_inside_setup_and_step_numbers_are_not_doubled(lantern_copy: Path) -> None:
    game = lantern_copy / "game.yaml"
    edit(game, "title: {en: Draw, pt_BR: Comprar}", "title: {en: 1. Draw, pt_BR: 1. Comprar}")
    edit(
        game,
        "  extra:\n",
        "  extra:\n    - id: setup\n      title: {en: Setup, pt_BR: Preparação}\n"
        "      text: {en: Give each player a stall board., pt_BR: Dê a cada jogador um tabuleiro de barraca.}\n",
    )
    loaded = load_spec(lantern_copy)
    assert loaded.spec is not None, loaded.findings
    en = make_rulebook(loaded.spec, "en", lantern_copy).markdown
    assert "### Step 1: Draw" in en and "Step 1: 1." not in en
    setup = en.split("## Setup\n")[1].split("\n## ")[0].strip()
    assert setup.startswith("Give each player a stall board.\n\nThe table below sums up what each number of players needs.")
    assert en.count("## Setup\n") == 1
    pt = make_rulebook(loaded.spec, "pt_BR", lantern_copy).markdown
    assert "### Etapa 1: Comprar" in pt
    assert "Dê a cada jogador um tabuleiro de barraca.\n\nA tabela abaixo resume" in pt
