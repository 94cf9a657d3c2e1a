"""Spreadsheet card sheets beyond CSV: each reader registers itself in ``SHEET_READERS`` by suffix."""

from __future__ import annotations
