"""Spelled-out numbers kept in this user's store: the same words as num2words gives, never a damaged or foreign entry."""

from __future__ import annotations

import json
import sys

import pytest

from cardgen.cache import seal_artefact, unseal_artefact, user_store, user_store_scope
from cardgen.spec.parse_cache import seal_entry
from cardgen.validate import prose


def _fresh() -> dict[str, int]:
    with user_store_scope(False):
        return prose.spelled_numbers("pt_BR")


def test_the_stored_words_are_num2words_own() -> None:
    made = prose.spelled_numbers("pt_BR")
    assert made == _fresh() and made["vinte e dois"] == 22
    assert prose.spelled_numbers("pt_BR") == made  # (read back from the store)


@pytest.mark.parametrize("damage", ["cut", "types", "not json"])
def test_a_bad_entry_is_made_again(damage: str, monkeypatch: pytest.MonkeyPatch) -> None:
    prose.spelled_numbers("pt_BR")
    store = user_store(prose.NUMBER_WORDS_STORE)
    assert store is not None and store.folder is not None
    (entry,) = list(store.folder.iterdir())
    payload = unseal_artefact(entry.read_bytes())
    assert payload is not None
    if damage == "cut":  # inside a well-sealed file: the entry's own seal refuses it
        entry.write_bytes(seal_artefact(payload[:-9]))
    else:
        body = json.dumps({"vinte e dois": "22"}) if damage == "types" else "{not json"
        entry.write_bytes(seal_artefact(seal_entry(prose.NUMBER_WORDS_ENTRY, body.encode())))
    monkeypatch.delitem(sys.modules, "num2words", raising=False)
    assert prose.spelled_numbers("pt_BR") == _fresh()
    assert "num2words" in sys.modules  # made afresh
