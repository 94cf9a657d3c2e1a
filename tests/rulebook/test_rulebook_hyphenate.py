"""The Portuguese hyphenator, and reportlab breaking lines with it (and with soft hyphens)."""

from __future__ import annotations

import pytest
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph

from cardgen.rulebook.hyphenate import SOFT_HYPHEN, hyphen_pairs, soft_hyphenate, syllables
from cardgen.rulebook.pdf import make_styles, register_fonts


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("jogadores", "jo-ga-do-res"),
        ("construção", "cons-tru-ção"),
        ("embaralhe", "em-ba-ra-lhe"),
        ("palavra", "pa-la-vra"),
        ("nascer", "nas-cer"),
        ("componentes", "com-po-nen-tes"),
        ("esclarecimentos", "es-cla-re-ci-men-tos"),
        ("guerreiro", "guer-reiro"),
        ("companhia", "com-pa-nhia"),
        ("Transportar", "Trans-por-tar"),
        ("carro", "carro"),  # too short to break
        ("UNESCO", "UNESCO"),  # acronyms are left alone
    ],
)
def test_syllables(word: str, expected: str) -> None:
    assert "-".join(syllables(word)) == expected


def test_pairs_are_longest_head_first() -> None:
    assert hyphen_pairs("preparação") == [("prepara", "ção"), ("prepa", "ração"), ("pre", "paração")]
    assert hyphen_pairs("ar") == []


def test_soft_hyphenate_marks_long_words_only() -> None:
    assert soft_hyphenate("O jogador embaralha") == f"O jo{SOFT_HYPHEN}ga{SOFT_HYPHEN}dor em{SOFT_HYPHEN}ba{SOFT_HYPHEN}ra{SOFT_HYPHEN}lha"


def _lines(paragraph: Paragraph, width: float) -> list[str]:
    paragraph.wrap(width, 1000)
    out = []
    for line in paragraph.blPara.lines:
        words = line[1] if isinstance(line, tuple) else line.words
        out.append(" ".join(w if isinstance(w, str) else "".join(t for _, t in w[1:]) for w in words))
    return out


def test_reportlab_breaks_portuguese_with_our_hyphenator() -> None:
    register_fonts()
    style = make_styles("pt_BR").body
    text = "Os esclarecimentos seguintes acompanham as preparações extraordinárias dos jogadores."
    lines = _lines(Paragraph(text, style), 110)
    assert any(line.endswith("-") for line in lines), lines
    joined = "".join(line[:-1] if line.endswith("-") else line + " " for line in lines)
    assert " ".join(joined.split()) == text


def test_reportlab_honours_soft_hyphens() -> None:
    register_fonts()
    style = ParagraphStyle("plain", fontName="DejaVuSans", fontSize=10, embeddedHyphenation=1, hyphenationLang="")
    text = soft_hyphenate("Os esclarecimentos seguintes acompanham as preparações extraordinárias.")
    lines = _lines(Paragraph(text, style), 110)
    assert any(line.endswith("-") for line in lines), lines
    assert all(SOFT_HYPHEN not in line for line in lines)
