"""The budgets: every limit on the work an input may ask of cardgen, named once.

File sizes alone do not bound work: a small file can alias one long text into
many fields, repeat one spreadsheet cell thousands of times, or ask for a
billion printed cards or pixels. Each budget below bounds one kind of work
(characters, cells, printed pieces, pixels, fitting steps) after expansion,
and every reader and check refuses an input over a budget with a message
naming the limit and the place. docs/decisions.md ("Budgets") explains the
figures; the spec models quote them in their descriptions (docs/spec.md).

The figures are set so that a collectible-card-sized game (several thousand
distinct cards, a few copies each) fits, and so that no command needs more
than a few hundred MB of memory on any input below a megabyte.
"""

from __future__ import annotations

# --------------------------------------------------------------------------- files and documents
MAX_FILE_BYTES = 2 * 1024 * 1024
"""The largest YAML file (spec, layout, sheet template, profile) or CSV card sheet read, in bytes."""
MAX_NODES = 200_000
"""Values one YAML document may expand to (aliases counted at every use)."""
MAX_DEPTH = 40
"""The deepest nesting of a YAML document."""
MAX_INT = 2**53 - 1
"""The largest whole number (either sign) a spec, layout or sheet may hold."""
MAX_SCALAR_CHARS = 64 * 1024
"""The longest single text (a YAML string or a spreadsheet cell), in characters."""
MAX_DOCUMENT_CHARS = 4_000_000
"""Characters one YAML document may hold after aliases are expanded (keys and values)."""

# --------------------------------------------------------------------------- rules data
MAX_EXPRESSION_DEPTH = 32
"""The deepest nesting of one rules-data expression (operators, calls and fields counted): far beyond any
condition a designer writes, and well inside what Python's parser and compiler take once it is compiled."""
MAX_TURN_LIMIT = 10_000
"""The largest ``end.turn_limit`` rules data may give at any player count."""
MAX_RULES_COUNT = 100_000
"""The largest count or counter value rules data may give as a constant: cards dealt or moved, a counter's
start, least and greatest value."""
MAX_GAME_ACTIONS = 200_000
"""The most actions a playout of a rules-data game may take before the checks call it endless (CG504)."""

# --------------------------------------------------------------------------- card sheets (CSV, XLSX, ODS)
MAX_SHEET_ROWS = 20_000
"""Card rows below the header of one card sheet."""
MAX_SHEET_COLUMNS = 200
"""Columns of a card sheet."""
MAX_SHEET_CELLS = 1_000_000
"""Non-empty cells a spec's card sheets may hold together, after repeated cells are expanded."""
MAX_SHEET_CHARS = 4_000_000
"""Characters a spec's card sheets may hold together, after shared strings and repeats are expanded."""
MAX_ARCHIVE_BYTES = 20 * 1024 * 1024
"""The most an .xlsx or .ods archive may weigh, and the most its members may expand to together."""
MAX_ZIP_MEMBERS = 5000
"""The most files an .xlsx or .ods archive may hold."""
MAX_XML_ELEMENTS = 600_000
"""XML elements all the parts of one .xlsx or .ods archive may hold together."""
MAX_XML_DEPTH = 64
"""The deepest nesting of elements in any XML part of an .xlsx or .ods archive."""
MAX_CELLS_VISITED = 2_000_000
"""Cells (empty ones included) an .xlsx sheet may make the reader visit."""

# --------------------------------------------------------------------------- decks and printing
MAX_PLAYERS = 12
"""The most players a spec, a setup or a command may name."""
MAX_COPIES = 500
"""Copies of one card, or pieces of one component (per palette entry and player)."""
MAX_CARDS_PER_DECK = MAX_SHEET_ROWS
"""Distinct cards in one deck (YAML and card sheet together)."""
MAX_PRINTED_PIECES = 30_000
"""Cards (every copy) and component pieces a spec may print, all decks and components together."""

# --------------------------------------------------------------------------- layouts and faces
MAX_LAYOUT_MM = 1000.0
"""The largest coordinate or size (either sign) in a layout, in mm."""
MAX_TEXT_PT = 200.0
"""The largest text size a layout may ask for, in points."""
MAX_LAYOUT_NUMBER = 1000.0
"""The largest magnitude of any other number a layout parameter holds (widths, gaps, scales)."""
MAX_FRAME_CELLS = 64
"""The most cells a drawn grid (a polyomino frame, a board) may have along one side."""
MAX_PAPER_MM = 2000.0
"""The largest paper side a sheet template may name, in mm (A0 is 1189 mm)."""
MAX_ELEMENTS_PER_FACE = 500
"""Elements one face layout may place."""
MAX_FIT_LAYOUTS = 64
"""Layouts the text fitter may try for one text before it settles on the smallest size."""

# --------------------------------------------------------------------------- bitmaps
MAX_BITMAP_SIDE = 20_000
"""The longest side of any bitmap cardgen renders, in pixels."""
MAX_BITMAP_PIXELS = 40_000_000
"""Pixels of any one bitmap (a PNG face, a preview, a TTS sheet): 160 MB as BGRA."""
MAX_CONTACT_SHEET_PIXELS = 20_000_000
"""Pixels of a preview contact sheet; its faces are shrunk to thumbnails to stay within it (they are kept in memory until it is drawn)."""

# --------------------------------------------------------------------------- replays
MAX_REPLAY_BYTES = 16 * 1024 * 1024
"""The largest replay log read, in bytes."""
MAX_REPLAY_PLIES = 200_000
"""Actions one replay log may hold."""
MAX_JSON_DEPTH = 8
"""The deepest nesting of one replay line (a replay never nests deeper than 3)."""
MAX_SEED = 2**63 - 1
"""The largest seed a replay or a command may give (seeds are whole numbers from 0)."""
MAX_PLAYOUTS = 1_000_000
"""The most playouts (or solved deals) one command may be asked for, per player count."""
MAX_JOBS = 64
"""The most worker processes a simulation may start (each holds its own interpreter and spec)."""
MAX_AGENT_BUDGET = 100_000
"""The most iterations (MCTS) or lookahead (greedy) an agent may spend on one decision (``mcts:N``, ``--mcts-budget``)."""
MAX_SKILL_GAMES = 100_000
"""The most skill-ladder games per rung a command may be asked for."""
MAX_TRIALS = 10_000
"""The most trials (and trials per batch) one tuning run may be asked for."""


def over(what: str, amount: int | float, limit: int | float, unit: str = "") -> str:
    """One message for a budget overrun: ``text holds 70000 characters, over the limit of 65536 characters``."""
    suffix = f" {unit}" if unit else ""
    return f"{what} {amount:,}{suffix}, over the limit of {limit:,}{suffix}"
