"""The docs' Python examples run, and print what the page says they print.

Each page's ```python blocks run in order in one namespace (as a reader would paste them);
a block followed by a ```text block must print exactly that text. (The ``>>>`` examples of
the pages run as doctests through ``--doctest-glob``.)
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

DOCS = Path(__file__).parents[1] / "docs"
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```\n", re.S | re.M)


def python_blocks(page: Path) -> list[tuple[str, str | None]]:
    """``(code, expected output or None)`` for each python block of ``page``."""
    blocks = [(m[1], m[2]) for m in BLOCK.finditer(page.read_text())]
    pairs = []
    for i, (lang, body) in enumerate(blocks):
        if lang == "python":
            follows = blocks[i + 1] if i + 1 < len(blocks) else None
            pairs.append((body, follows[1] if follows and follows[0] == "text" else None))
    return pairs


@pytest.mark.parametrize(
    "page",
    [
        "quickstart.md",
        "semantics.md",
        "formats.md",
        "rag.md",
        "pooling.md",
        "agreement.md",
        pytest.param("retrievers.md", marks=pytest.mark.retrievers),
    ],
)
def test_page_examples_print_what_the_page_shows(page, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)  # examples may write files (write_beir)
    blocks = python_blocks(DOCS / page)
    assert any(expected for _, expected in blocks), f"no checked examples in {page}"
    namespace: dict[str, object] = {"__name__": "__docs__"}
    for code, expected in blocks:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, f"{page} example", "exec"), namespace)
        if expected is not None:
            assert out.getvalue() == expected, f"{page}: the example printed something else"
