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
* ``<game>-print-<paper>.layout.json``: the trim and printed-bleed rectangle of
  every card on every page, in mm from the page's top-left corner;
* ``<game>-duplex-test-<paper>.pdf``: a two-page alignment test. It is a
  separate file so the card sheets stay a clean print job and the test can be
  printed once per printer.

Outputs are byte-for-byte deterministic.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Callable, Mapping

from cardgen.build import ArtefactCache, BuildContext, register_producer
from cardgen.render.faces import Face, card_faces, print_order
from cardgen.render.pdf_backend import write_pdf
from cardgen.render.scene import Box, Group, Scene, scene_digest, shared_face
from cardgen.render.sheets import FooterInfo, ImposedSheets, PrintItem, builtin_sheet_template, duplex_test_sheet, impose
from cardgen.render.svg_backend import write_svg
from cardgen.render.widgets import local
from cardgen.spec.models import Spec

SHEET_WORDS: dict[str, tuple[str, str, str]] = {
    "en": ("sheet {n} of {m}", "front", "back"),
    "pt_BR": ("folha {n} de {m}", "frente", "verso"),
}
"""How the footer says 'sheet n of m', 'front' and 'back' in each card language."""


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
    for face in faces:
        scene = face.scene
        if seen[face.key] > 1:
            shared = shared_face(scene, known.get(face.key))
            scene = Scene(
                scene.width_mm, scene.height_mm, (Group(scene.children, shared=shared),), scene.trim_box, scene.bleed_box
            )
        pages.append(scene)
    return pages


def _box(box: Box) -> list[float]:
    return [round(box.x, 4), round(box.y, 4), round(box.w, 4), round(box.h, 4)]


def layout_sidecar(game: str, paper: str, sheets: ImposedSheets, pairs: list[tuple[Face, Face | None]], sheet_bleed: float | None, locale: str) -> dict[str, object]:
    """The JSON record of where every card landed (pages and sheets 1-based)."""
    pages = []
    for index, page in enumerate(sheets.pages):
        on_page = sheets.placements_on(index)
        pages.append(
            {
                "page": index + 1,
                "sheet": on_page[0].sheet_number if on_page else None,
                "side": on_page[0].side if on_page else None,
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
            }
        )
    return {
        "game": game,
        "paper": paper,
        "card_locale": locale,
        "units": "mm; boxes are [x, y, width, height] from the page's top-left corner, y pointing down",
        "sheet_bleed_mm": sheet_bleed,
        "pages": pages,
        "cards": cards,
    }


def _cached(cache: ArtefactCache | None, parts: tuple[object, ...], make: Callable[[], bytes]) -> bytes:
    """``make()``, or its bytes from an earlier build with the same ``parts``."""
    if cache is None:
        return make()
    return cache.fetch(cache.key(*parts), make)


def produce_cards(context: BuildContext) -> list[Path]:
    """Write the card SVGs, the print-shop PDF, and per paper the print sheets, sidecar and duplex test."""
    spec = context.loaded.spec
    assert spec is not None
    for lang in context.options.langs:  # --card-lang defaults to --lang: name the option the user gave
        context.loaded.require_locale(lang, "--lang")
    if context.options.card_lang:
        context.loaded.require_locale(context.options.card_lang, "--card-lang")
    locale = card_locale(spec, context.options.card_lang)
    faces = card_faces(context.loaded, locale)
    written: list[Path] = []
    cards_dir = context.staging / "cards"
    cards_dir.mkdir(parents=True, exist_ok=True)
    cache = context.cache
    digests = {face.key: scene_digest(face.scene) for face in faces}
    for face in faces:
        path = cards_dir / f"{face.key}.svg"
        scene = face.scene
        path.write_bytes(_cached(cache, ("svg", digests.get(face.key)), lambda: write_svg(scene).encode("utf-8")))
        written.append(path)

    items, pairs = print_items(faces, digests)
    title = local(spec.title, locale, spec.locales[0])
    shop = context.staging / f"{spec.id}-cards-bleed.pdf"
    shop_title = f"{title} – cards with bleed"
    shop_key = ("shop-pdf", shop_title, [(digests.get(f.key), digests.get(r.key) if r else None) for f, r in pairs])
    shop.write_bytes(_cached(cache, shop_key, lambda: write_pdf(shop_pages(pairs, digests), title=shop_title)))
    written.append(shop)

    footer = footer_for(spec, locale)
    for paper in context.options.papers:
        template = builtin_sheet_template(paper)
        sheets = impose(items, template, footer)
        pdf = context.staging / f"{spec.id}-print-{paper}.pdf"
        item_keys = [
            (digests.get(f.key), digests.get(r.key) if r else None, i.trim_w, i.trim_h, i.bleed, i.copies, i.label)
            for (f, r), i in zip(pairs, items)
        ]
        sheet_key = ("print-pdf", title, template.model_dump_json(), footer, item_keys)
        pdf.write_bytes(_cached(cache, sheet_key, lambda: sheets.to_pdf(title=title)))
        sidecar = context.staging / f"{spec.id}-print-{paper}.layout.json"
        record = layout_sidecar(spec.id, paper, sheets, pairs, template.sheet_bleed_mm, locale)
        sidecar.write_text(json.dumps(record, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
        test = context.staging / f"{spec.id}-duplex-test-{paper}.pdf"
        test_key = ("duplex-pdf", title, template.model_dump_json(), footer)
        test.write_bytes(_cached(cache, test_key, lambda: duplex_test_sheet(template, footer).to_pdf(title=f"{title} – duplex test")))
        written += [pdf, sidecar, test]
    context.notes.append(
        f"cards: {len(faces)} distinct faces, {sum(i.copies for i in items)} printed pieces, card language {locale}"
    )
    return written


register_producer("cards", produce_cards)
