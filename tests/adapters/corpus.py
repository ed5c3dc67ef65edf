"""The tiny corpus every library adapter is tested on, and what a keyword retriever answers."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).parents[2]

TEXTS = {
    "d1": "cats sit on warm mats",
    "d2": "dogs bark at the mail carrier",
    "d3": "cats and dogs can live together",
    "d4": "fish swim in cold water",
    "d5": "birds fly south in winter",
}
QUERIES = {"q1": "cats", "q2": "dogs bark", "q3": "cold water fish", "q4": "zebra"}
QRELS = {"q1": {"d1": 1, "d3": 1}, "q2": {"d2": 2}, "q3": {"d4": 1}, "q4": {"d5": 1}}
#: What a keyword-overlap retriever over TEXTS answers (ties by doc id).
EXPECTED = {"q1": ("d1", "d3"), "q2": ("d2", "d3"), "q3": ("d4",), "q4": ()}


def keyword_ranking(query: str, limit: int = 10) -> list[str]:
    """Docs sharing a word with the query: most shared words first, ties by doc id."""
    words = set(query.split())
    overlap = {doc: len(words & set(text.split())) for doc, text in TEXTS.items()}
    return sorted((d for d, n in overlap.items() if n), key=lambda d: (-overlap[d], d))[:limit]
