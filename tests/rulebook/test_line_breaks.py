"""Line breaks kept between layouts (issue 17): a rulebook typeset with kept lines is the one typeset afresh.

What is checked is that the PDF is byte for byte the one a layout without kept lines makes, for every shipped
game, both languages (Portuguese is hyphenated) and both papers (other widths), also after an edit of a card's
text; that kept lines are used; and that what a key covers tells entries apart (text, style, width, a split). Never how long anything takes.
"""

from __future__ import annotations

import csv
import shutil
import zlib
from pathlib import Path

import pytest
import yaml
from reportlab.lib.styles import ParagraphStyle

from cardgen.rulebook import line_breaks
from cardgen.cache import ArtefactCache
from cardgen.render.scene import Scene
from cardgen.rulebook.build import Rulebook, _typeset_keeping_lines, prepare_rulebook, typeset_rulebook
from cardgen.rulebook.figures import play_figures
from cardgen.rulebook.line_breaks import KeptParagraph, LinePack, keep_line_breaks, line_break_counts, pack_key, style_key
from cardgen.spec.load import load_spec
from cardgen.spec.models import Spec

from .conftest import ROOT

GAMES = sorted(p.parent for p in (ROOT / "specs").glob("*/game.yaml"))


Prepared = list[tuple[Spec, Rulebook, dict[str, Scene]]]


def _prepared(folder: Path, cache: ArtefactCache) -> Prepared:
    """The spec in ``folder``'s rulebooks, one per language, with their pictures, ready to typeset (``cache``
    keeps the worked turn's moves, which a card's name does not change)."""
    loaded = load_spec(folder)
    spec = loaded.spec
    assert spec is not None, [f.render() for f in loaded.findings]
    play = play_figures(spec, cache) if spec.rules is not None else None
    return [(spec, *prepare_rulebook(spec, locale, loaded.folder, loaded, None, play)) for locale in spec.locales]


def _typeset_all(books: Prepared, papers: tuple[str, ...]) -> dict[tuple[str, str], bytes]:
    """Every book, by (language, paper), and its Markdown by (language, "md")."""
    out = {}
    for spec, rulebook, pictures in books:
        out[(rulebook.locale, "md")] = rulebook.markdown.encode("utf-8")
        for paper in papers:
            out[(rulebook.locale, paper)] = typeset_rulebook(spec, rulebook, paper, pictures).data
    return out


@pytest.mark.parametrize("folder", GAMES, ids=[g.name for g in GAMES])
def test_kept_lines_typeset_the_book_a_fresh_layout_typesets(folder: Path, tmp_path: Path) -> None:
    line_breaks.forget_line_breaks()
    papers = ("a4", "letter") if folder.name == "keramikos" else ("a4",)  # (another width: other lines, other entries)
    cache = ArtefactCache(tmp_path / "cache")
    books = _prepared(folder, cache)
    fresh = _typeset_all(books, papers)
    with keep_line_breaks():
        assert _typeset_all(books, papers) == fresh, "breaking and keeping changes nothing"
        before = line_break_counts()
        assert _typeset_all(books, papers) == fresh, "the kept lines are the lines"
        after = line_break_counts()
    assert after["hits"] > before["hits"] and after["misses"] == before["misses"], "every paragraph kept was given its lines"
    # An edit of one card's name: the rebuilt books are those typeset afresh from the edited spec.
    copy = tmp_path / folder.name
    shutil.copytree(folder, copy)
    name = _rename_a_card(copy)
    books = _prepared(copy, cache)
    with keep_line_breaks():
        rebuilt = _typeset_all(books, papers)
    assert line_break_counts()["hits"] > after["hits"], "the rebuild was given the lines of the paragraphs it met before"
    with keep_line_breaks(False):
        edited = _typeset_all(books, papers)
    assert rebuilt == edited
    if any(f"{name} the Second" in book.decode("utf-8") for (_, paper), book in edited.items() if paper == "md"):
        assert all(rebuilt[key] != fresh[key] for key in rebuilt if key[0] == "en"), f"the edit of {name!r} shows in the books"


def _rename_a_card(folder: Path) -> str:
    """Rename (in English) the first card of the first deck (its first face, for a two-sided card: the books name
    the faces), in its game.yaml or its card sheet; the old name."""
    path = folder / "game.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    deck = data["decks"][0]
    if deck.get("cards"):
        card = deck["cards"][0]
        names = card["faces"][0]["name"] if card.get("faces") else card["name"]
        name = names["en"]
        names["en"] = f"{name} the Second"
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    else:
        sheet = folder / deck["cards_file"]
        with sheet.open(encoding="utf-8", newline="") as handle:
            rows = list(csv.DictReader(handle))
        name = rows[0]["name.en"]
        rows[0]["name.en"] = f"{name} the Second"
        with sheet.open("w", encoding="utf-8", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    edited = load_spec(folder).spec
    assert edited is not None
    card = edited.decks[0].cards[0]
    names = card.faces[0].name if card.faces else card.name
    assert names is not None and names["en"] == f"{name} the Second"
    return str(name)


def test_a_key_covers_text_style_width_and_what_happened_to_the_paragraph() -> None:
    line_breaks.forget_line_breaks()
    body = ParagraphStyle("body", fontName="Helvetica", fontSize=10, leading=12)
    bigger = ParagraphStyle("body", fontName="Helvetica", fontSize=11, leading=12)
    text = "A paragraph <b>long enough</b> to be broken into a few lines at the widths this test lays it out at. " * 3  # (several fragments)
    with keep_line_breaks():
        first = KeptParagraph(text, body)
        height = first.wrap(200, 1000)[1]
        counts = line_break_counts()
        assert KeptParagraph(text, body).wrap(200, 1000)[1] == height
        assert line_break_counts()["hits"] == counts["hits"] + 1
        for other in (KeptParagraph(text, bigger), KeptParagraph(text + " More.", body)):
            other.wrap(200, 1000)
        wider = KeptParagraph(text, body)
        assert wider.wrap(300, 1000)[1] < height
        assert line_break_counts()["hits"] == counts["hits"] + 1, "another style, text or width is another entry"
        parts = first.split(200, 30)
        assert len(parts) == 2
        first.wrap(200, 1000)  # a split paragraph's state is no key's: broken afresh, not kept
        assert first.__dict__["_kept"] is None
    assert style_key(body) != style_key(bigger)
    body.fontSize = 11
    assert style_key(body) == style_key(bigger), "a style is keyed by its attributes' values, read again when they change"


def test_without_the_switch_nothing_is_kept() -> None:
    line_breaks.forget_line_breaks()
    before = line_break_counts()
    style = ParagraphStyle("body", fontName="Helvetica", fontSize=10, leading=12)
    for _ in range(2):
        KeptParagraph("<b>Some</b> text that is laid out twice.", style).wrap(100, 100)
    assert line_break_counts() == before


def test_a_line_pack_reads_back_and_a_damaged_one_reads_as_empty() -> None:
    pack = LinePack({})
    pack.keep("a" * 64, b"one")
    pack.keep("b" * 64, b"two\nlines 9\n")
    assert LinePack.read(pack.payload()).stored == {"a" * 64: b"one", "b" * 64: b"two\nlines 9\n"}
    for bad in (None, b"", b"not compressed", zlib.compress(b"x 5\nab"), zlib.compress(b"no header"), zlib.compress(b"x -1\n")):
        assert LinePack.read(bad).stored == {}


def test_a_book_whose_kept_lines_do_not_read_back_is_broken_afresh(tmp_path: Path) -> None:
    folder = ROOT / "specs" / "no-thanks"
    cache = ArtefactCache(tmp_path / "cache")
    spec, rulebook, pictures = _prepared(folder, cache)[0]
    fresh = typeset_rulebook(spec, rulebook, "a4", pictures).data
    line_breaks.forget_line_breaks()
    assert _typeset_keeping_lines(spec, rulebook, "a4", pictures, cache) == fresh
    key = pack_key(cache, rulebook.locale, "a4")
    stored = LinePack.read(cache.get(key)).stored
    assert stored, "the layout kept its lines in the cache"
    damaged = LinePack({})
    for digest in stored:
        damaged.keep(digest, b"not a pickle")
    cache.put(key, damaged.payload())
    before = line_break_counts()
    assert _typeset_keeping_lines(spec, rulebook, "a4", pictures, cache) == fresh
    after = line_break_counts()
    assert after["hits"] == before["hits"] and after["misses"] > before["misses"]
    assert LinePack.read(cache.get(key)).stored == stored, "and its lines were kept again"


def test_a_paragraph_of_one_fragment_is_not_kept() -> None:
    line_breaks.forget_line_breaks()
    style = ParagraphStyle("body", fontName="Helvetica", fontSize=10, leading=12)
    with keep_line_breaks():
        before = line_break_counts()
        for _ in range(2):
            KeptParagraph("Plain text of one font, broken as fast as a copy of its lines reads back.", style).wrap(100, 100)
        assert line_break_counts() == before and not line_breaks._memo
