"""Tabletop Simulator: deck sheets, back images and a saved object that loads as ready decks.

Conventions followed (Tabletop Simulator's custom deck importer):

* a deck sheet is a grid of ``NumWidth`` x ``NumHeight`` equal slots, at most
  10 x 7; slots are numbered left to right, top to bottom from 0;
* the LAST slot of a sheet is the "hidden" image (shown for cards held in
  another player's hand when ``BackIsHidden`` is false), so a sheet holds at
  most 69 cards. cardgen reserves that slot on every sheet, puts the deck's
  back in it (a neutral grey for double-sided decks and tokens) and also sets
  ``BackIsHidden: true``, so hidden cards show their back either way;
* a card's ``CardID`` is ``deck id * 100 + slot``, where the deck id is the key
  of its ``CustomDeck`` entry (one per sheet, numbered from 1 across the save);
* sheets are kept within 4096 px on each side (older graphics cards refuse
  larger textures): slots are the card's trim at up to 150 dpi, smaller when
  10 columns would not fit.

What is exported, one ``DeckCustom`` per deck (a lone ``Card`` when a deck has a
single card), every copy of a card as its own ``Card`` in ``ContainedObjects``:

* single-sided decks: a face sheet of the fronts and one back image
  (``UniqueBack: false``);
* double-sided decks: a face sheet of first faces and a back sheet whose slot
  ``i`` holds the second face of the card in face slot ``i`` (``UniqueBack:
  true``);
* components (tiles, markers): exported as a deck of tokens, one per piece,
  with the piece printed on both sides (the face sheet doubles as the back
  sheet, ``UniqueBack: true``) and square or round corners from the shape.

Images are trimmed to the card's trim (a virtual table has nothing to cut) and
referenced as ``file:///`` URLs, so the save works on the machine that made it.
With a ``base_url`` (``--base-url``) they are referenced as ``<base_url>/<file>``
instead: upload the folder's PNGs there and the save works on any machine
(how to host them: docs/workflow.md).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, urlsplit
from typing import Any

from PIL import Image as PILImage

from cardgen.export.folder_page import write_folder_page
from cardgen.fsmove import write_atomic
from cardgen.export.raster import png_bytes, px_to_mm, rasterise, reframe, trim_of
from cardgen.progress import NoProgress, ProgressHook
from cardgen.render.faces import Face, card_faces
from cardgen.render.widgets import local
from cardgen.spec.load import LoadedSpec
from cardgen.spec.models import Spec

MAX_COLUMNS = 10
MAX_ROWS = 7
MAX_CARDS_PER_SHEET = MAX_COLUMNS * MAX_ROWS - 1
MAX_SHEET_PX = 4096
SLOT_DPI = 150.0
HIDDEN_GREY = (128, 128, 128)
CARD_TYPE_ROUNDED, CARD_TYPE_SQUARE, CARD_TYPE_CIRCLE = 0, 1, 4
REFERENCE_MM = (63.5, 88.9)
"""The size a Tabletop Simulator card has at scale 1 (a 2.5 x 3.5 in card); other sizes are scaled from it."""


@dataclass(frozen=True)
class Entry:
    """One distinct card of a deck: the face in its face-sheet slot, what is on its back slot, how many copies."""

    face: Face
    back: Face | None
    copies: int
    name: str


@dataclass
class Group:
    """One exported deck (or token deck) before layout."""

    id: str
    name: str
    entries: list[Entry]
    common_back: Face | None
    unique_back: bool
    card_type: int
    trim_mm: tuple[float, float]


@dataclass
class TtsExport:
    """What :func:`export_tts` wrote."""

    saved_object: Path
    images: list[Path] = field(default_factory=list)
    decks: dict[str, int] = field(default_factory=dict)
    """Deck id -> number of Card objects (copies) in it."""


def sheet_grid(cards: int) -> tuple[int, int]:
    """(NumWidth, NumHeight) for a sheet of ``cards`` cards plus the hidden slot; at least 2 x 2."""
    if not 1 <= cards <= MAX_CARDS_PER_SHEET:
        raise ValueError(f"a sheet holds 1..{MAX_CARDS_PER_SHEET} cards, not {cards}")
    slots = cards + 1
    rows = max(2, math.ceil(slots / MAX_COLUMNS))
    columns = max(2, math.ceil(slots / rows))
    return columns, rows


def slot_pixels(trim_mm: tuple[float, float], columns: int, rows: int) -> tuple[int, int]:
    """Pixel size of one slot: the trim at up to 150 dpi, shrunk so the sheet stays within 4096 px."""
    width_mm, height_mm = trim_mm
    dpi = min(SLOT_DPI, MAX_SHEET_PX / columns / (width_mm / 25.4), MAX_SHEET_PX / rows / (height_mm / 25.4))
    return max(8, math.floor(width_mm / 25.4 * dpi)), max(8, math.floor(height_mm / 25.4 * dpi))


def _groups(spec: Spec, faces: list[Face], locale: str) -> list[Group]:
    by_key = {f.key: f for f in faces}
    groups: list[Group] = []
    for deck in spec.decks:
        members = [f for f in faces if f.group == deck.id]
        names = {c.id: local(c.name, locale, spec.locales[0]) for c in deck.cards}
        entries = []
        for face in members:
            if face.kind != "front" or face.face_index != 0:
                continue
            second = by_key.get(face.reverse) if deck.double_sided and face.reverse else None
            entries.append(Entry(face, second, face.copies, names.get(face.card or "", face.key)))
        if not entries:
            continue
        back = by_key.get(f"{deck.id}-back") if not deck.double_sided else None
        trim = trim_of(entries[0].face.scene)
        groups.append(Group(deck.id, local(deck.name, locale, spec.locales[0]), entries, back, deck.double_sided, CARD_TYPE_ROUNDED, (trim.w, trim.h)))
    for component in spec.components:
        pieces = [f for f in faces if f.kind == "component" and f.group == component.id]
        if not pieces:
            continue
        name = local(component.name, locale, spec.locales[0])
        entries = [Entry(f, f, f.copies, f"{name} ({f.key})") for f in pieces]
        trim = trim_of(pieces[0].scene)
        card_type = CARD_TYPE_CIRCLE if component.shape == "circle" else CARD_TYPE_SQUARE
        groups.append(Group(component.id, name, entries, None, True, card_type, (trim.w, trim.h)))
    return groups


class _Slots:
    """Renders faces into slot-sized images, each face once."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.size = size
        self._cache: dict[str, PILImage.Image] = {}

    def image(self, face: Face | None) -> PILImage.Image:
        if face is None:
            return PILImage.new("RGB", self.size, HIDDEN_GREY)
        cached = self._cache.get(face.key)
        if cached is None:
            width_px, height_px = self.size
            trim = trim_of(face.scene)
            dpi = width_px / (trim.w / 25.4)
            scene = reframe(face.scene, px_to_mm(width_px, dpi), px_to_mm(height_px, dpi))
            cached = rasterise(scene, width_px, height_px)
            self._cache[face.key] = cached
        return cached


def _sheet(slots: _Slots, faces: list[Face | None], columns: int, rows: int, hidden: Face | None) -> PILImage.Image:
    width_px, height_px = slots.size
    sheet = PILImage.new("RGB", (columns * width_px, rows * height_px), (255, 255, 255))
    cells: list[Face | None] = faces + [None] * (columns * rows - 1 - len(faces)) + [hidden]
    for index, face in enumerate(cells):
        if face is None and index != len(cells) - 1:
            continue
        row, col = divmod(index, columns)
        sheet.paste(slots.image(face), (col * width_px, row * height_px))
    return sheet


def _transform(x: float, trim_mm: tuple[float, float], face_down: bool) -> dict[str, float]:
    return {
        "posX": round(x, 3), "posY": 1.0, "posZ": 0.0,
        "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0 if face_down else 0.0,
        "scaleX": round(trim_mm[0] / REFERENCE_MM[0], 4), "scaleY": 1.0, "scaleZ": round(trim_mm[1] / REFERENCE_MM[1], 4),
    }


def _card(card_id: int, name: str, deck_id: int, custom: dict[str, Any], transform: dict[str, float], guid: str) -> dict[str, Any]:
    return {
        "Name": "Card", "GUID": guid, "Transform": transform, "Nickname": name, "Description": "",
        "CardID": card_id, "SidewaysCard": False, "HideWhenFaceDown": True,
        "CustomDeck": {str(deck_id): custom},
    }


def check_base_url(base_url: str) -> str:
    """``base_url`` without its trailing slash; ValueError unless it is an http(s) address with a host."""
    parts = urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise ValueError(f"--base-url {base_url!r} is not an http:// or https:// address of a folder (no ?query or #fragment)")
    return base_url.rstrip("/")


def export_tts(loaded: LoadedSpec, out: Path, locale: str | None = None, progress: ProgressHook | None = None, base_url: str | None = None) -> TtsExport:
    """Write sheet images and ``<game>.json`` (a Tabletop Simulator saved object) into ``out`` (``progress`` counts decks).

    Images are named in the save by ``file:///`` URL, or as ``<base_url>/<file name>`` when ``base_url``
    (the hosted folder, http or https) is given.
    """
    hook = progress or NoProgress()
    root = check_base_url(base_url) if base_url is not None else None

    def url(path: Path) -> str:
        return f"{root}/{quote(path.name)}" if root is not None else path.as_uri()

    spec = loaded.spec
    if spec is None:
        raise ValueError("the spec did not load")
    locale = locale or spec.locales[0]
    faces = card_faces(loaded, locale)
    out = out.resolve()
    result = TtsExport(out / f"{spec.id}.json")
    objects: list[dict[str, Any]] = []
    next_id = 1
    guid = 0
    groups = _groups(spec, faces, locale)
    hook.start(len(groups), "Tabletop Simulator decks")
    for g_index, group in enumerate(groups):
        chunks = [group.entries[i : i + MAX_CARDS_PER_SHEET] for i in range(0, len(group.entries), MAX_CARDS_PER_SHEET)]
        first_columns, first_rows = sheet_grid(len(chunks[0]))
        slots = _Slots(slot_pixels(group.trim_mm, first_columns, first_rows))
        back_url = ""
        if not group.unique_back:
            back_path = out / f"{group.id}-back.png"
            write_atomic(back_path, png_bytes(slots.image(group.common_back)))
            result.images.append(back_path)
            back_url = url(back_path)
        x = g_index * 4.0
        deck_ids: list[int] = []
        custom_decks: dict[str, dict[str, Any]] = {}
        cards: list[dict[str, Any]] = []
        for s_index, chunk in enumerate(chunks, start=1):
            columns, rows = sheet_grid(len(chunk))
            deck_id = next_id
            next_id += 1
            stem = f"{group.id}-{s_index}" if len(chunks) > 1 else group.id
            face_path = out / f"{stem}.png"
            hidden = group.common_back
            write_atomic(face_path, png_bytes(_sheet(slots, [e.face for e in chunk], columns, rows, hidden)))
            result.images.append(face_path)
            sheet_back_url = back_url
            if group.unique_back:
                backs = [e.back for e in chunk]
                if all(e.back is e.face for e in chunk):
                    sheet_back_url = url(face_path)
                else:
                    back_sheet = out / f"{stem}-back.png"
                    write_atomic(back_sheet, png_bytes(_sheet(slots, backs, columns, rows, None)))
                    result.images.append(back_sheet)
                    sheet_back_url = url(back_sheet)
            custom = {
                "FaceURL": url(face_path), "BackURL": sheet_back_url,
                "NumWidth": columns, "NumHeight": rows,
                "BackIsHidden": True, "UniqueBack": group.unique_back, "Type": group.card_type,
            }
            custom_decks[str(deck_id)] = custom
            for slot, entry in enumerate(chunk):
                for _copy in range(entry.copies):
                    guid += 1
                    card_id = deck_id * 100 + slot
                    deck_ids.append(card_id)
                    cards.append(_card(card_id, entry.name, deck_id, custom, _transform(x, group.trim_mm, True), f"{guid:06x}"))
        result.decks[group.id] = len(cards)
        hook.advance()  # this deck's images are written
        if len(cards) == 1:
            objects.append(cards[0])
            continue
        guid += 1
        objects.append(
            {
                "Name": "DeckCustom", "GUID": f"{guid:06x}", "Transform": _transform(x, group.trim_mm, True),
                "Nickname": group.name, "Description": "", "HideWhenFaceDown": True,
                "DeckIDs": deck_ids, "CustomDeck": custom_decks, "ContainedObjects": cards,
            }
        )
    title = local(spec.title, locale, spec.locales[0])
    save = {
        "SaveName": title, "GameMode": title, "Date": "", "VersionNumber": "", "Table": "", "Sky": "",
        "Note": f"{title} {spec.version}: made by cardgen from the game's spec.", "Rules": "",
        "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": objects, "TabStates": {},
    }
    write_atomic(result.saved_object, (json.dumps(save, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    hosted = [f"--base-url {root}: upload the PNGs there"] if root is not None else []
    write_folder_page(spec, out, "tts", locale, [f"{name}: {count}" for name, count in result.decks.items()] + hosted)
    return result
