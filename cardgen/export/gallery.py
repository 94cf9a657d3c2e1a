"""The gallery: a static ``index.html`` per game, written by ``cardgen build``.

The page shows every face (the SVGs the "cards" producer writes to ``cards/``),
each card's front beside its back (or second face), grouped by deck, then the
components; it says how to print (the first page of each print PDF, in short)
and links the print PDFs, the rulebooks and, when they exist, the pages of the
``report/``, ``replays/``, ``preview/`` and ``tts/`` folders and of every
print-shop folder (``cardgen export profile``): each command writes its
folder's ``index.html`` (:mod:`cardgen.export.folder_page`; the report its
own), and a folder without one, left by an older cardgen, is linked as a folder. It is one
self-contained file: inline CSS, no script, no external URL, relative links
only, so it opens straight from disk. Every text is escaped.

The producer is registered as ``zz-gallery``: the build runs producers in
sorted name order, so it runs after ``cards`` and ``rulebooks`` and lists the
files they staged, and only those: print files and rulebooks an earlier build
left in the game's folder (another paper, another language) are not linked.
Folders written by other commands (``report/``, ``replays/``...) are looked for
in the game's published output folder as well.
"""

from __future__ import annotations

import json
import os
from typing import Mapping
from pathlib import Path
from urllib.parse import quote

from cardgen.artefacts import BuildContext, register_producer
from cardgen.export.folder_page import folder_kind, kind_title
from cardgen.render.faces import Face, card_faces
from cardgen.render.widgets import local
from cardgen.spec.models import Spec

PRODUCER_NAME = "zz-gallery"
INDEX = "index.html"
EXTRA_FOLDERS = ("report", "replays", "preview", "tts")
"""Folders linked when present, in this order; then the print-shop folders, by name."""

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "print": "Print files", "rules": "Rulebooks", "more": "More", "components": "Components", "report": "Balance report",
        "back": "back", "face2": "second face", "copies": "copies", "copy": "copy", "front": "front", "none": "blank",
        "made": "Made by cardgen from the game's spec.",
        "howto": "How to print", "paper": "On {paper} paper ({file})",
    },
    "pt_BR": {
        "print": "Arquivos para impressão", "rules": "Livros de regras", "more": "Mais", "components": "Componentes", "report": "Relatório de equilíbrio",
        "back": "verso", "face2": "segunda face", "copies": "cópias", "copy": "cópia", "front": "frente", "none": "em branco",
        "made": "Feito pelo cardgen a partir da especificação do jogo.",
        "howto": "Como imprimir", "paper": "Em papel {paper} ({file})",
    },
}
"""The page's own words in each card language (English for any other)."""

CSS = """
body{font-family:"DejaVu Sans",Verdana,sans-serif;margin:0;background:#f2f0ec;color:#222}
header,main,footer{max-width:1200px;margin:0 auto;padding:0 16px}
h1{margin:16px 0 4px}h2{border-bottom:2px solid #ccc;padding-bottom:4px;margin-top:28px}
ul.links{columns:2;padding-left:20px}ul.links li{margin:2px 0}
.deck{display:flex;flex-wrap:wrap;gap:14px}
figure{margin:0;background:#fff;border:1px solid #ddd;border-radius:6px;padding:8px}
.pair{display:flex;gap:6px}.pair img{display:block}
figcaption{font-size:13px;margin-top:6px;max-width:360px}
figcaption small{color:#666}
.blank{height:180px;width:120px;border:1px dashed #bbb;display:flex;align-items:center;justify-content:center;color:#999;font-size:12px}
footer{font-size:12px;color:#666;margin:24px auto}
"""


def _e(text: str) -> str:
    from html import escape  # (here, not at the top: a build imports this module for every artefact kind, mostly to write none of its pages)

    return escape(text, quote=True)


def _href(relative: str) -> str:
    return _e(quote(relative, safe="/"))


def _classify(files: list[str], game: str) -> tuple[list[str], list[str]]:
    """(print files, rulebooks) among the top-level files of the game folder."""
    prints, rules = [], []
    for name in sorted(files):
        if name.startswith(f"{game}-rules-") and name.endswith((".pdf", ".md")):
            rules.append(name)
        elif name.endswith(".pdf") or name.endswith(".layout.json"):
            prints.append(name)
    return prints, rules


def _copies(count: int, words: dict[str, str]) -> str:
    return f"{count} {words['copy'] if count == 1 else words['copies']}"


def _img(face: Face | None, words: dict[str, str], alt: str, height_px: int = 180) -> str:
    """An ``<img>`` of the face's SVG, sized from the face's own proportions (not the SVG's header)."""
    if face is None:
        return f'<div class="blank">{_e(words["none"])}</div>'
    width_px = round(height_px * face.scene.width_mm / face.scene.height_mm)
    return f'<img src="{_href("cards/" + face.key + ".svg")}" alt="{_e(alt)}" width="{width_px}" height="{height_px}">'


def render_gallery(
    spec: Spec, faces: list[Face], top_files: list[str], folders: list[str], locale: str, sidecar_folders: list[Path] | None = None,
    guides: Mapping[str, list[str]] | None = None,
) -> str:
    """The gallery page's HTML for ``faces``, linking ``top_files`` and ``folders`` (relative names);
    the print files' layout sidecars, looked for in ``sidecar_folders``, say how to print (``guides``: their
    ``how_to_print`` by sidecar name, as this build staged them, read instead of the files)."""
    words = WORDS.get(locale, WORDS["en"])
    title = local(spec.title, locale, spec.locales[0])
    by_key = {f.key: f for f in faces}
    lang = locale.replace("_", "-")
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{_e(lang)}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title><style>{CSS}</style></head><body>",
        f"<header><h1>{_e(title)}</h1><p>{_e(spec.version)} · {_e(local(spec.licence.attribution, locale, spec.locales[0]))}</p></header><main>",
    ]
    prints, rules = _classify(top_files, spec.id)
    for heading, files in ((words["print"], prints), (words["rules"], rules)):
        if files:
            items = "".join(f'<li><a href="{_href(n)}">{_e(n)}</a></li>' for n in files)
            parts.append(f"<h2>{_e(heading)}</h2><ul class=\"links\">{items}</ul>")
    parts += _how_to_print(spec, prints, sidecar_folders or [], words, guides or {})
    if folders:
        items = "".join(f'<li><a href="{_href(target)}">{_e(label)}</a></li>' for target, label in _folder_links(folders, locale, words, sidecar_folders or []))
        parts.append(f"<h2>{_e(words['more'])}</h2><ul class=\"links\">{items}</ul>")
    for deck in spec.decks:
        names = {c.id: local(c.name, locale, spec.locales[0]) for c in deck.cards}
        figures = []
        for face in faces:
            if face.group != deck.id or face.kind != "front" or face.face_index != 0:
                continue
            reverse = by_key.get(face.reverse) if face.reverse else None
            name = names.get(face.card or "", face.key)
            side = words["face2"] if deck.double_sided else words["back"]
            front_alt = f"{name} ({words['front']})"
            back_alt = f"{name} ({side})"
            figures.append(
                f'<figure id="{_e(face.key)}"><div class="pair">{_img(face, words, front_alt)}'
                f"{_img(reverse, words, back_alt)}</div>"
                f"<figcaption>{_e(name)} <small>{_e(face.key)} · {_e(_copies(face.copies, words))}</small></figcaption></figure>"
            )
        heading = local(deck.name, locale, spec.locales[0])
        parts.append(f'<h2 id="deck-{_e(deck.id)}">{_e(heading)}</h2><div class="deck">{"".join(figures)}</div>')
    pieces = [f for f in faces if f.kind == "component"]
    if pieces:
        figures = [
            f'<figure id="{_e(p.key)}"><div class="pair">{_img(p, words, p.key, 90)}</div>'
            f"<figcaption><small>{_e(p.key)} · {_e(_copies(p.copies, words))}</small></figcaption></figure>"
            for p in pieces
        ]
        parts.append(f'<h2 id="components">{_e(words["components"])}</h2><div class="deck">{"".join(figures)}</div>')
    parts.append(f"</main><footer>{_e(words['made'])}</footer></body></html>")
    return "\n".join(parts) + "\n"


def _folder_links(folders: list[str], locale: str, words: dict[str, str], places: list[Path]) -> list[tuple[str, str]]:
    """(link, text) for each folder: its page when one of ``places`` holds ``<folder>/index.html``, else the folder."""
    out = []
    for name in folders:
        holder = next((place / name for place in places if (place / name / INDEX).is_file()), None)
        kind = folder_kind(holder) if holder is not None else None
        if name == "report":
            label = words["report"]
        elif kind in ("preview", "tts", "print-shop", "replays"):
            label = kind_title(kind, locale, name)  # type: ignore[arg-type]
        else:
            label = f"{name}/"
        out.append((f"{name}/{INDEX}" if holder is not None else f"{name}/", label))
    return out


def _shop_folders(places: list[Path]) -> list[str]:
    """The print-shop folders (a folder page of kind print-shop) in any of ``places``, by name."""
    found = {child.name for place in places if place.is_dir() for child in place.iterdir() if child.is_dir() and folder_kind(child) == "print-shop"}
    return sorted(found - set(EXTRA_FOLDERS))


def _how_to_print(spec: Spec, prints: list[str], folders: list[Path], words: dict[str, str], guides: Mapping[str, list[str]]) -> list[str]:
    """The print PDFs' guide in short, per paper (100 %, the double-sided run, the duplex test, cutting),
    as the cards producer wrote it into each print file's layout sidecar (``guides``: as this build staged it,
    so the sidecar, which holds every card's placement, is not parsed again)."""
    out: list[str] = []
    for name in prints:
        paper = name.removeprefix(f"{spec.id}-print-").removesuffix(".pdf")
        if not (name.startswith(f"{spec.id}-print-") and name.endswith(".pdf")):
            continue
        staged = guides.get(f"{spec.id}-print-{paper}.layout.json")
        if staged is not None:
            sentences = [str(s) for s in staged]
        else:
            sidecar = next((folder / f"{spec.id}-print-{paper}.layout.json" for folder in folders if (folder / f"{spec.id}-print-{paper}.layout.json").is_file()), None)
            if sidecar is None:
                continue
            try:
                sentences = [str(s) for s in json.loads(sidecar.read_text(encoding="utf-8")).get("how_to_print", [])]
            except (OSError, ValueError, AttributeError):
                continue
        if not sentences:
            continue
        items = "".join(f"<li>{_e(s)}</li>" for s in sentences)
        out.append(f"<h3>{_e(words['paper'].format(paper=paper.upper() if len(paper) <= 2 else paper.title(), file=name))}</h3><ul>{items}</ul>")
    if out:
        out.insert(0, f'<h2 id="how-to-print">{_e(words["howto"])}</h2>')
    return out


def produce_gallery(context: BuildContext) -> list[Path]:
    """Write ``index.html`` into the staging folder from the faces and the files staged so far."""
    from cardgen.render.produce import card_locale

    spec = context.loaded.spec
    assert spec is not None
    if not (context.staging / "cards").is_dir():
        context.notes.append("gallery: no card faces were staged, so no index.html was written")
        return []
    locale = card_locale(spec, context.options.card_lang)
    with os.scandir(context.staging / "cards") as entries:  # (one listing, not a status call per face)
        staged = {entry.name for entry in entries if entry.is_file()}
    faces = [f for f in card_faces(context.loaded, locale) if f"{f.key}.svg" in staged]
    published = context.staging.parent / context.game_id
    # Only what this build staged: files an earlier build left (another paper, another language) are
    # not linked, so the page is the one a fresh build with the same options writes.
    top_files = sorted(p.name for p in context.staging.iterdir() if p.is_file() and not p.name.startswith(".") and p.name != INDEX)
    folders = [name for name in EXTRA_FOLDERS if (context.staging / name).is_dir() or (published / name).is_dir()]
    folders += _shop_folders([context.staging, published])
    page = context.staging / INDEX
    page.write_text(render_gallery(spec, faces, top_files, folders, locale, [context.staging, published], context.print_guides), encoding="utf-8")
    context.notes.append(f"gallery: {INDEX} shows {len(faces)} faces")
    return [page]


register_producer(PRODUCER_NAME, produce_gallery, artefacts=("gallery",))
