"""Tabletop Simulator export: the saved object loads, counts match the spec, sheets have the grid's pixel size."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import pytest
from PIL import Image

from cardgen.export.tts import MAX_CARDS_PER_SHEET, TtsExport, export_tts, sheet_grid, slot_pixels
from cardgen.spec.load import LoadedSpec


def _path(url: str) -> Path:
    parsed = urlparse(url)
    assert parsed.scheme == "file", url
    return Path(unquote(parsed.path))


def _decks(save: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {obj["Nickname"]: obj for obj in save["ObjectStates"]}


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory, mausoleum: LoadedSpec, ceratopsians: LoadedSpec, ceramus: LoadedSpec) -> dict[str, TtsExport]:
    root = tmp_path_factory.mktemp("tts")
    return {loaded.spec.id: export_tts(loaded, root / loaded.spec.id) for loaded in (mausoleum, ceratopsians, ceramus) if loaded.spec}


def test_grid_follows_tts_limits() -> None:
    assert sheet_grid(69) == (10, 7)  # 69 cards + the hidden slot fill a full 10 x 7 sheet
    assert sheet_grid(18) == (10, 2)
    assert sheet_grid(14) == (8, 2)
    assert sheet_grid(1) == (2, 2)
    assert MAX_CARDS_PER_SHEET == 69
    with pytest.raises(ValueError):
        sheet_grid(70)


def test_slots_keep_sheets_within_4096_px() -> None:
    width, height = slot_pixels((70.0, 70.0), 10, 2)
    assert width * 10 <= 4096 and height * 2 <= 4096
    assert slot_pixels((63.0, 88.0), 8, 2) == (372, 519)  # 150 dpi: 63 mm -> 372 px, 88 mm -> 519 px


def test_mausoleum_deck_has_52_cards_with_copies(exported: dict[str, TtsExport], mausoleum: LoadedSpec) -> None:
    result = exported["mausoleum-guardians"]
    save = json.loads(result.saved_object.read_text(encoding="utf-8"))
    (deck,) = save["ObjectStates"]
    assert deck["Name"] == "DeckCustom"
    assert len(deck["ContainedObjects"]) == 52 == len(deck["DeckIDs"])
    assert deck["DeckIDs"] == [card["CardID"] for card in deck["ContainedObjects"]]
    assert all(card["Name"] == "Card" for card in deck["ContainedObjects"])
    # copies honoured: Base appears 6 times (the spec's copies), every copy with the same CardID
    assert mausoleum.spec is not None
    copies = {c.id: c.copies for c in mausoleum.spec.decks[0].cards}
    assert copies["base"] == 6
    assert deck["DeckIDs"].count(100) == 6
    (custom,) = deck["CustomDeck"].values()
    assert (custom["NumWidth"], custom["NumHeight"]) == (8, 2)
    assert custom["UniqueBack"] is False and custom["BackIsHidden"] is True
    sheet = Image.open(_path(custom["FaceURL"]))
    assert sheet.size == (8 * 372, 2 * 519)
    back = Image.open(_path(custom["BackURL"]))
    assert back.size == (372, 519)
    # the last slot of the sheet holds the hidden image: the deck back
    hidden = sheet.crop((7 * 372, 519, 8 * 372, 2 * 519))
    assert hidden.tobytes() == back.convert("RGB").tobytes()


def test_card_ids_are_deck_id_times_100_plus_slot(exported: dict[str, TtsExport]) -> None:
    for result in exported.values():
        save = json.loads(result.saved_object.read_text(encoding="utf-8"))
        for obj in save["ObjectStates"]:
            cards = obj.get("ContainedObjects", [obj])
            for card in cards:
                deck_id, slot = divmod(card["CardID"], 100)
                custom = card["CustomDeck"][str(deck_id)]
                assert slot < custom["NumWidth"] * custom["NumHeight"] - 1  # never the hidden slot
                assert _path(custom["FaceURL"]).is_file() and _path(custom["BackURL"]).is_file()


def test_double_sided_deck_uses_a_unique_back_sheet(exported: dict[str, TtsExport]) -> None:
    save = json.loads(exported["ceratopsians"].saved_object.read_text(encoding="utf-8"))
    (deck,) = save["ObjectStates"]
    assert len(deck["ContainedObjects"]) == 18  # the rulebook's deck size
    (custom,) = deck["CustomDeck"].values()
    assert custom["UniqueBack"] is True
    assert (custom["NumWidth"], custom["NumHeight"]) == (10, 2)
    face_sheet, back_sheet = Image.open(_path(custom["FaceURL"])), Image.open(_path(custom["BackURL"]))
    width, height = slot_pixels((70.0, 70.0), 10, 2)
    assert face_sheet.size == back_sheet.size == (10 * width, 2 * height)
    assert face_sheet.tobytes() != back_sheet.tobytes()


def test_components_become_a_token_deck(exported: dict[str, TtsExport], ceramus: LoadedSpec) -> None:
    save = json.loads(exported["ceramus"].saved_object.read_text(encoding="utf-8"))
    assert ceramus.spec is not None
    by_id = exported["ceramus"].decks
    for deck in ceramus.spec.decks:
        assert by_id[deck.id] == sum(card.copies for card in deck.cards)
    assert (by_id["mural"], by_id["shapes"], by_id["ceramas"]) == (12, 14, 6)
    tiles = [obj for obj in save["ObjectStates"] if obj["CustomDeck"] and next(iter(obj["CustomDeck"].values()))["Type"] == 1]
    assert len(tiles) == 1
    (custom,) = tiles[0]["CustomDeck"].values()
    assert custom["FaceURL"] == custom["BackURL"]  # a token shows its piece on both sides
    assert len(tiles[0]["ContainedObjects"]) == by_id["tile"]


def test_base_url_names_hosted_sheets(tmp_path: Path, ceratopsians: LoadedSpec) -> None:
    result = export_tts(ceratopsians, tmp_path / "tts", base_url="https://example.org/games/ceratopsians/tts/")
    text = result.saved_object.read_text(encoding="utf-8")
    save = json.loads(text)
    urls = [url for obj in save["ObjectStates"] for deck in obj.get("CustomDeck", {}).values() for url in (deck["FaceURL"], deck["BackURL"])]
    assert urls and "file://" not in text
    assert all(url.startswith("https://example.org/games/ceratopsians/tts/") and "//" not in url.removeprefix("https://") for url in urls)
    assert {url.rsplit("/", 1)[1] for url in urls} <= {path.name for path in result.images}


@pytest.mark.parametrize("bad", ["ftp://example.org/x", "example.org/x", "https:///nohost", "https://example.org/x?y=1"])
def test_base_url_must_be_a_web_folder(tmp_path: Path, ceratopsians: LoadedSpec, bad: str) -> None:
    with pytest.raises(ValueError):
        export_tts(ceratopsians, tmp_path / "tts", base_url=bad)
    assert not (tmp_path / "tts").exists()
