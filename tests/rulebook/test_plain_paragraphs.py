"""Plain-text paragraphs made without reportlab's markup parser break as the parser's paragraphs do (issue 17).

:class:`cardgen.rulebook.paragraphs.Paragraphs` builds a paragraph of one style from a fragment parsed once per
style, and cleans an ASCII text's whitespace with one split and join instead of reportlab's line-by-line
cleaning: the cleaned text must be reportlab's, and the lines those of reportlab's own parse, for any whitespace
a spec's text may hold, in ASCII or not.
"""

from __future__ import annotations

import itertools

import pytest
from reportlab.platypus.paragraph import cleanBlockQuotedText

from cardgen.rulebook.document import Run
from cardgen.rulebook.line_breaks import KeptParagraph
from cardgen.rulebook.paragraphs import Paragraphs, markup
from cardgen.rulebook.pdf import make_styles, register_fonts

TEXTS = [
    "Draw two cards.",
    "  Draw\ttwo\n\ncards,\r\nthen   pass \x0b one.\x0c ",
    "\x1cfile\x1dgroup\x1erecord\x1funit separators",
    "Compre\u00a0duas cartas\u2003e passe\u200buma.",
    "Ação: troque\u2028uma carta\u3000com o vizinho.",
]
ASCII_SPACES = " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"


def test_ascii_whitespace_is_cleaned_as_reportlab_cleans_it() -> None:
    register_fonts()
    style = make_styles("en").body
    paragraphs = Paragraphs()
    for length in range(1, 5):
        for chars in itertools.product(ASCII_SPACES + "a.", repeat=length):
            text = "".join(chars)
            cleaned = cleanBlockQuotedText(text)
            if cleaned:  # (an empty one goes through the parser)
                assert paragraphs((Run(text),), style).text == cleaned, repr(text)


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize("bold", [False, True])
def test_a_plain_paragraph_breaks_as_the_parsers(text: str, bold: bool) -> None:
    register_fonts()
    style = make_styles("pt_BR").body
    runs = (Run(text, bold=bold),)
    made = Paragraphs()(runs, style, KeptParagraph)
    parsed = KeptParagraph(markup(runs), style)
    assert [frag.text.strip() for frag in made.frags] == [frag.text.strip() for frag in parsed.frags]
    for width in (40.0, 120.0, 400.0):
        made_copy, parsed_copy = Paragraphs()(runs, style, KeptParagraph), KeptParagraph(markup(runs), style)
        assert made_copy.wrap(width, 1000.0) == parsed_copy.wrap(width, 1000.0)
        assert made_copy.blPara.lines == parsed_copy.blPara.lines
