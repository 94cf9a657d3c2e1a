"""The benchmark job: a spec of N distinct poker cards (coloured frame, title, wrapped body text).

``bench/job/`` holds the 54-card job the issue measures (``game.yaml``,
``cards.csv``, ``layouts/cards.yaml``); it is a real spec that ``cardgen
build bench/job`` builds. :func:`write_job` copies it with the card list
scaled to any number of distinct cards (the deck-size rows: 540, 5,400),
splitting them over several decks of at most :data:`DECK_LIMIT` cards (see there). The card data of the copies is the 54 cards'
data repeated with new ids and numbered titles, so every card stays distinct.

Run as a script it rewrites ``bench/job/cards.csv`` from the word lists below
(deterministic), which is how the committed file was made.
"""

from __future__ import annotations

import csv
import io
import random
import shutil
from pathlib import Path

JOB = Path(__file__).resolve().parent / "job"
DECK_LIMIT = 1800
"""Cards per deck in the scaled copies: the split the bench's first figures used, when a deck held at most 2,000
(a deck may now hold 20,000; keeping the split keeps the figures comparable)."""
SUITS = ("ember", "tide", "grove", "stone")
WORDS = (
    "draw discard swap reveal steal keep pass trade score lose gain shuffle the a your each other one two those cards "
    "card hand deck pile row opponent player turn round point points token tokens from into onto and then until if "
    "when every any choose face-up face-down top bottom next previous its their another left right"
).split()
NOUNS = "Lantern Harbour Falcon Ember Willow Anvil Comet Thistle Marble Beacon Cinder Meadow Quarry Raven Tide Orchard Summit Ferry".split()
ADJECTIVES = "Quiet Bright Hollow Gilded Restless Patient Broken Hidden Swift Ancient Lucky Crimson Pale Northern".split()


def card_rows(count: int = 54, seed: int = 17) -> list[dict[str, str]]:
    """``count`` cards: id, copies 1, a suit, a two-word title and one to three sentences of body text."""
    rng = random.Random(seed)
    rows = []
    for index in range(count):
        sentences = []
        for _ in range(rng.randint(1, 3)):
            words = [rng.choice(WORDS) for _ in range(rng.randint(6, 14))]
            sentences.append(" ".join(words).capitalize() + ".")
        rows.append(
            {
                "id": f"card-{index + 1:03d}",
                "copies": "1",
                "type": SUITS[index % len(SUITS)],
                "name.en": f"{rng.choice(ADJECTIVES)} {rng.choice(NOUNS)}",
                "text.en": " ".join(sentences),
            }
        )
    return rows


def write_csv(rows: list[dict[str, str]], path: Path) -> None:
    """Write card rows as the spec's card sheet."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    path.write_text(buffer.getvalue(), encoding="utf-8")


def read_rows(path: Path = JOB / "cards.csv") -> list[dict[str, str]]:
    """The committed job's card rows."""
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def write_job(target: Path, distinct: int) -> Path:
    """A copy of ``bench/job`` under ``target`` with ``distinct`` cards; returns the spec folder.

    Up to :data:`DECK_LIMIT` cards go in each deck: the first deck is the job's
    own ``cards`` deck, further ones repeat its definition as ``cards2``,
    ``cards3``... with their own card sheet and the same layout.
    """
    folder = target / "job"
    if folder.exists():
        shutil.rmtree(folder)
    shutil.copytree(JOB, folder)
    base = read_rows()
    rows = []
    for index in range(distinct):
        row = dict(base[index % len(base)])
        row["id"] = f"card-{index + 1:05d}"
        if index >= len(base):
            row["name.en"] = f"{row['name.en']} {index // len(base) + 1}"
        rows.append(row)
    chunks = [rows[i : i + DECK_LIMIT] for i in range(0, len(rows), DECK_LIMIT)]
    spec = (folder / "game.yaml").read_text(encoding="utf-8")
    deck_start = spec.index("  - id: cards\n")
    deck_end = spec.index("setups:")
    deck = spec[deck_start:deck_end]
    decks = [deck]
    write_csv(chunks[0], folder / "cards.csv")
    for number, chunk in enumerate(chunks[1:], start=2):
        write_csv(chunk, folder / f"cards{number}.csv")
        decks.append(deck.replace("id: cards\n", f"id: cards{number}\n", 1).replace("cards_file: cards.csv", f"cards_file: cards{number}.csv"))
        layout = (folder / "layouts" / "cards.yaml").read_text(encoding="utf-8")
        (folder / "layouts" / f"cards{number}.yaml").write_text(layout, encoding="utf-8")
    spec = spec[:deck_start] + "".join(decks) + spec[deck_end:]
    spec = spec.replace("{of: cards, count: 54,", f"{{of: cards, count: {len(chunks[0])},")
    (folder / "game.yaml").write_text(spec, encoding="utf-8")
    return folder


if __name__ == "__main__":
    write_csv(card_rows(), JOB / "cards.csv")
    print(f"wrote {JOB / 'cards.csv'}")
