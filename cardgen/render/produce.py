"""The "cards" build producer: card face SVGs, print sheets (PDF), their layout sidecars.

For a game it writes, under the staging folder:

* ``cards/<key>.svg``: every distinct face at full bleed (``<deck>-<card>``,
  ``<deck>-<card>-face2``, ``<deck>-back``, ``<component>-...``), for screens
  and print shops;
* ``<game>-cards-bleed.pdf``: the same faces one per page (front, then its
  reverse), with TrimBox and BleedBox set, for print shops;
* ``<game>-print-<paper>.pdf`` per paper: every copy imposed on sheets with
  crop marks at the exact trim, a back page after each front page (backs
  mirrored for the printer's flip; a double-sided card's second face is its
  back), and a footer naming the game, version, sheet and licence;
* ``<game>-print-<paper>.layout.json``: how to print the sheets (the guide
  page's general sentences, which the gallery shows), the trim and printed-bleed rectangle of
  every card on every page, in mm from the page's top-left corner, and the
  quarter turn (degrees clockwise) of a card printed sideways;
* ``<game>-duplex-test-<paper>.pdf``: a two-page alignment test. It is a
  separate file so the card sheets stay a clean print job and the test can be
  printed once per printer.

Outputs are byte-for-byte deterministic.
"""

from __future__ import annotations

import json
import os
import zlib
from collections import Counter
from functools import partial
from pathlib import Path
from typing import Callable, Mapping

from cardgen.artefacts import BuildContext, Paper, register_producer
from cardgen.cache import ArtefactCache
from cardgen.render.faces import Face, card_faces, print_order
from cardgen.render.pdf_backend import write_pdf
from cardgen.render.scene import Box, Group, Scene, scene_digest, shared_face
from cardgen.render.sheet_guide import duplex_test_sheet, print_advice, with_guide
from cardgen.render.sheets import CardPlacement, FooterInfo, ImposedSheets, PrintItem, builtin_sheet_template, impose
from cardgen.render.widgets import local
from cardgen.spec.models import Spec
from cardgen.spec.parse_cache import open_entry, seal_entry

CARD_ARTEFACTS = ("faces", "bleed", "print")
"""What ``cardgen build --only`` can choose among this producer's files: the face SVGs, the
one-card-per-page bleed PDF, the print sheets (with their layout sidecars and duplex tests)."""
SHEET_WORDS: dict[str, tuple[str, str, str]] = {
    "en": ("sheet {n} of {m}", "front", "back"),
    "pt_BR": ("folha {n} de {m}", "frente", "verso"),
}
"""How the footer says 'sheet n of m', 'front' and 'back' in each card language."""

BLANK_WORDS: dict[str, str] = {
    "en": "left blank so the file prints double-sided in one run",
    "pt_BR": "em branco para o arquivo sair todo em frente e verso",
}
"""What a blank back page's footer says in each card language."""


def card_locale(spec: Spec, requested: str | None) -> str:
    """The locale printed on the cards: the requested one if the spec declares it, else the first."""
    if requested and requested in spec.locales:
        return requested
    return spec.locales[0]


def footer_for(spec: Spec, locale: str) -> FooterInfo:
    """The sheet footer in the card language."""
    return FooterInfo(
        title=local(spec.title, locale, spec.locales[0]),
        version=spec.version,
        licence=local(spec.licence.attribution, locale, spec.locales[0]),
        sheet_words=SHEET_WORDS.get(locale, SHEET_WORDS["en"]),
        blank_word=BLANK_WORDS.get(locale, BLANK_WORDS["en"]),
    )


def print_items(faces: list[Face], digests: Mapping[str, str] | None = None) -> tuple[list[PrintItem], list[tuple[Face, Face | None]]]:
    """Print items (front + reverse, copies) in print order, and the faces behind each item.

    ``digests`` (face key -> ``scene_digest`` of its scene), when known, spare
    the sheets from hashing the faces again to name their shared content.
    """
    pairs = print_order(faces)
    known = digests or {}
    items = [
        PrintItem(
            front.scene, front.size.width, front.size.height, front.size.bleed,
            back=reverse.scene if reverse is not None else None, copies=front.copies, label=front.key,
            front_digest=known.get(front.key), back_digest=known.get(reverse.key) if reverse is not None else None,
        )
        for front, reverse in pairs
    ]
    return items, pairs


def shop_pages(pairs: list[tuple[Face, Face | None]], digests: Mapping[str, str] | None = None) -> list[Scene]:
    """The print-shop document's pages: every front, then its reverse, at full bleed.

    A face on more than one page (a deck's common back) has its content marked
    as shared, so the PDF draws it once and places it on each of those pages.
    """
    faces = [face for front, reverse in pairs for face in (front, reverse) if face is not None]
    seen = Counter(face.key for face in faces)
    known = digests or {}
    pages = []
    wrapped: dict[str, Scene] = {}  # one page scene per repeated face, whatever the number of its pages
    for face in faces:
        scene = face.scene
        if seen[face.key] > 1:
            page = wrapped.get(face.key)
            if page is None:
                shared = shared_face(scene, known.get(face.key))
                page = wrapped[face.key] = Scene(
                    scene.width_mm, scene.height_mm, (Group(scene.children, shared=shared),), scene.trim_box, scene.bleed_box
                )
            scene = page
        pages.append(scene)
    return pages


def _box(box: Box) -> list[float]:
    return [round(box.x, 4), round(box.y, 4), round(box.w, 4), round(box.h, 4)]


def layout_sidecar(game: str, paper: str, sheets: ImposedSheets, pairs: list[tuple[Face, Face | None]], sheet_bleed: float | None, locale: str, advice: list[str] | None = None) -> dict[str, object]:
    """The JSON record of where every card landed (pages and sheets 1-based), and how to print the sheets."""
    first_on: dict[int, CardPlacement] = {}  # (one walk over the placements, not one per page)
    for placement in sheets.placements:
        first_on.setdefault(placement.page_index, placement)
    pages = []
    for index, page in enumerate(sheets.pages):
        first = first_on.get(index)
        pages.append(
            {
                "page": index + 1,
                "sheet": first.sheet_number if first else None,
                "side": first.side if first else None,
                "size_mm": [round(page.width_mm, 4), round(page.height_mm, 4)],
                "crop_marks": len(sheets.crop_marks[index]),
            }
        )
    cards = []
    for p in sheets.placements:
        front, reverse = pairs[p.item_index]
        face = front if p.side == "front" else reverse
        assert face is not None
        cards.append(
            {
                "page": p.page_index + 1,
                "sheet": p.sheet_number,
                "side": p.side,
                "face": face.key,
                "group": face.group,
                "card": face.card,
                "item": p.item_index,
                "copy": p.copy_index,
                "row": p.row,
                "col": p.col,
                "trim_mm": _box(p.trim),
                "bleed_mm": _box(p.bleed),
                "turn_deg": p.turn,
            }
        )
    return {
        "game": game,
        "paper": paper,
        "card_locale": locale,
        "units": "mm; boxes are [x, y, width, height] from the page's top-left corner, y pointing down",
        "sheet_bleed_mm": sheet_bleed,
        "how_to_print": advice or [],
        "pages": pages,
        "cards": cards,
    }


def _cached(cache: ArtefactCache | None, parts: tuple[object, ...], make: Callable[[], bytes]) -> bytes:
    """``make()``, or its bytes from an earlier build with the same ``parts``."""
    if cache is None:
        return make()
    return cache.fetch(cache.key(*parts), make)


SVG_PACK = "svg-pack-2"
"""The cache entry holding a game's face SVGs (and its format version): a JSON object of SVG text by scene
digest, zlib-compressed."""


def _read_pack(payload: bytes | None) -> dict[str, str]:
    """The SVGs of a pack by scene digest; {} for anything missing or malformed (a bad entry only costs a rewrite)."""
    if payload is None:
        return {}
    try:
        stored = json.loads(zlib.decompress(payload).decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError, zlib.error):
        return {}
    if not isinstance(stored, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in stored.items()):
        return {}
    return stored


class _PackWriter:
    """Builds a pack as its SVGs are written, compressed as it goes, so the texts are not all held at once."""

    def __init__(self) -> None:
        self._zip = zlib.compressobj(1)
        self._chunks = [self._zip.compress(b"{")]
        self.digests: set[str] = set()

    def add(self, digest: str, text: str) -> None:
        """Add one face's SVG (a digest already in the pack is left as it is)."""
        if digest in self.digests:
            return
        comma = "," if self.digests else ""
        self.digests.add(digest)
        item = f"{comma}{json.dumps(digest)}:{json.dumps(text, ensure_ascii=False)}"
        self._chunks.append(self._zip.compress(item.encode("utf-8")))

    def payload(self) -> bytes:
        """The compressed JSON object."""
        self._chunks.append(self._zip.compress(b"}") + self._zip.flush())
        return b"".join(self._chunks)


def card_svgs(faces: list[Face], digests: Mapping[str, str], cache: ArtefactCache | None, locale: str, folder: Path) -> list[Path]:
    """Write every face's SVG as ``folder/<key>.svg``, drawn afresh or taken from the cache's pack of this game's SVGs.

    Each file is written as soon as its text is known, so the SVGs of a large
    deck are not all held at once (only the text of a face whose drawing
    repeats under another key is kept, for its next file). The SVGs of a game
    are kept in one cache entry (by scene digest) rather than one entry per
    face: a build of N faces then reads and writes one cache file instead of N,
    which is what a large deck's cold build and rebuild spend their time on
    otherwise. The pack is compressed as it is built, and rewritten, with this
    build's faces only, when a face was drawn afresh or one was dropped.
    """
    key = cache.key(SVG_PACK, locale) if cache is not None else ""
    known = _read_pack(open_entry(SVG_PACK, cache.get(key))) if cache is not None else {}
    repeated = {digest for digest, count in Counter(digests[face.key] for face in faces).items() if count > 1}
    kept: dict[str, str] = {}
    pack = _PackWriter()
    drawn = 0
    written: list[Path] = []
    for face in faces:
        digest = digests[face.key]
        text = kept.get(digest) or known.get(digest)
        if text is None:
            from cardgen.render.svg_backend import write_svg  # (only when an SVG is drawn)

            text = write_svg(face.scene)
            drawn += 1
        if digest in repeated:
            kept[digest] = text
        if cache is not None:
            pack.add(digest, text)
        path = folder / f"{face.key}.svg"
        _write_new(path, text.encode("utf-8"))
        written.append(path)
    if cache is not None and (drawn or set(known) != pack.digests):
        cache.put(key, seal_entry(SVG_PACK, pack.payload()))
    return written


def _write_new(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` (created or truncated) with one open, write and close: what ``Path.write_bytes``
    does, without the buffered file's status, terminal and seek calls, three system calls of six per card face."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0), 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def produce_cards(context: BuildContext) -> list[Path]:
    """Write the card SVGs, the print-shop PDF, and per paper the print sheets, sidecar and duplex test.

    The faces are drawn (or taken from validation) here; each file, or group of
    files, is then written by a part handed off to the build (see
    :meth:`cardgen.artefacts.BuildContext.hand_off`), so on a machine with idle
    processors they are written side by side. Returns the files it wrote itself
    (none: the parts write them).
    """
    spec = context.loaded.spec
    assert spec is not None
    for lang in context.options.langs:  # --card-lang defaults to --lang: name the option the user gave
        context.loaded.require_locale(lang, "--lang")
    if context.options.card_lang:
        context.loaded.require_locale(context.options.card_lang, "--card-lang")
    locale = card_locale(spec, context.options.card_lang)
    faces = card_faces(context.loaded, locale)
    digests = {face.key: scene_digest(face.scene) for face in faces}
    items, pairs = print_items(faces, digests)
    title = local(spec.title, locale, spec.locales[0])
    if context.options.wants("faces"):
        context.hand_off(lambda part: _write_svgs(part, faces, digests, locale))
    if context.options.wants("bleed"):
        context.hand_off(lambda part: _write_bleed(part, spec.id, title, pairs, digests))
    footer = footer_for(spec, locale)
    for paper in context.options.papers if context.options.wants("print") else ():
        context.hand_off(partial(_write_sheets, paper=paper, title=title, locale=locale, footer=footer, items=items, pairs=pairs, digests=digests))
    context.notes.append(
        f"cards: {len(faces)} distinct faces, {sum(i.copies for i in items)} printed pieces, card language {locale}"
    )
    return []


def _write_svgs(context: BuildContext, faces: list[Face], digests: Mapping[str, str], locale: str) -> list[Path]:
    """Write every face's SVG under ``cards/``."""
    folder = context.staging / "cards"
    folder.mkdir(parents=True, exist_ok=True)
    return card_svgs(faces, digests, context.cache, locale, folder)


def _write_bleed(
    context: BuildContext, game: str, title: str, pairs: list[tuple[Face, Face | None]], digests: Mapping[str, str]
) -> list[Path]:
    """Write the print shop's one-card-per-page PDF with bleed."""
    shop = context.staging / f"{game}-cards-bleed.pdf"
    shop_title = f"{title} – cards with bleed"
    shop_key = ("shop-pdf", shop_title, [(digests.get(f.key), digests.get(r.key) if r else None) for f, r in pairs])
    shop.write_bytes(_cached(context.cache, shop_key, lambda: write_pdf(shop_pages(pairs, digests), title=shop_title)))
    return [shop]


def _write_sheets(
    context: BuildContext, paper: Paper, title: str, locale: str, footer: FooterInfo, items: list[PrintItem],
    pairs: list[tuple[Face, Face | None]], digests: Mapping[str, str],
) -> list[Path]:
    """Write one paper's print sheets, their layout sidecar and the duplex test, and note the sidecar's print guide."""
    spec = context.loaded.spec
    assert spec is not None
    template = builtin_sheet_template(paper)
    test_name = f"{spec.id}-duplex-test-{paper}.pdf"
    bleeds = {index: item.bleed for index, item in enumerate(items)}
    sheets = with_guide(impose(items, template, footer), template, footer, bleeds, locale, test_name)
    pdf = context.staging / f"{spec.id}-print-{paper}.pdf"
    item_keys = [
        (digests.get(f.key), digests.get(r.key) if r else None, i.trim_w, i.trim_h, i.bleed, i.copies, i.label)
        for (f, r), i in zip(pairs, items)
    ]
    sheet_key = ("print-pdf", 2, title, locale, template.model_dump_json(), footer, item_keys)
    pdf.write_bytes(_cached(context.cache, sheet_key, lambda: sheets.to_pdf(title=title)))
    sidecar = context.staging / f"{spec.id}-print-{paper}.layout.json"
    duplex = any(p.side == "back" for p in sheets.placements)
    advice = print_advice(template, locale, test_name, duplex)
    record = layout_sidecar(spec.id, paper, sheets, pairs, template.sheet_bleed_mm, locale, advice)
    # Compact: the sidecar is for tools, and an indented dump takes Python's slow encoder (0.18 s against 0.05 s for 5,400 cards).
    sidecar.write_text(json.dumps(record, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n", encoding="utf-8")
    context.print_guides[sidecar.name] = list(advice or [])
    test = context.staging / test_name
    test_key = ("duplex-pdf", title, template.model_dump_json(), footer)
    test.write_bytes(_cached(context.cache, test_key, lambda: duplex_test_sheet(template, footer).to_pdf(title=f"{title} – duplex test")))
    return [pdf, sidecar, test]


register_producer("cards", produce_cards, artefacts=CARD_ARTEFACTS)
