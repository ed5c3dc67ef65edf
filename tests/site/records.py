"""Records for the site's tests: real ``evaluate_run`` reports of small runs, and a reader of
the tables a built page shows."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta, timezone
from html.parser import HTMLParser

from ef.evaluation import Record, evaluate_run

N_QUERIES = 12
QRELS = {f"q{i}": {f"d{i}": 1, f"e{i}": 2} for i in range(N_QUERIES)}
QUERIES = {f"q{i}": f"what is <b>topic</b> {i} & more?" for i in range(N_QUERIES)}
#: A system's name that is markup: every page must show it as text.
SCRIPT_NAME = "<script>window.pwned=1</script>"
METRICS = ("ndcg@10", "mrr@10", "recall@5")
START = datetime(2026, 11, 1, 9, 30, tzinfo=timezone.utc)


def run(ranks: Sequence[int | None]) -> dict[str, list[str]]:
    """A run that puts each query's relevant docs at ``ranks[i]`` (0 is the top; None: not
    retrieved), under unjudged docs."""
    out = {}
    for i, rank in enumerate(ranks):
        docs = [f"x{i}-{j}" for j in range(6)]
        if rank is not None:
            docs.insert(rank, f"e{i}")
            docs.insert(rank + 1, f"d{i}")
        out[f"q{i}"] = docs
    return out


#: Each system's runs over time, by the rank of its relevant docs per query.
GOOD = [0] * 10 + [2, 4]
MID = [0, 1, 2, 3] * 3
BAD = [None] * 8 + [3, 4, 5, 0]
NOISY = [0, 3, 1, 4, 0, 2, 5, None, 1, 0, 2, 3]


def record(system: str, ranks: Sequence[int | None], day: int, **fields: object) -> Record:
    report = evaluate_run(run(ranks), QRELS, metrics=list(METRICS))
    return Record(
        system=system,
        dataset=str(fields.pop("dataset", "scifact")),
        report=report,
        recorded_at=START + timedelta(days=day),
        **fields,  # type: ignore[arg-type]
    )


def scenario() -> list[Record]:
    """bm25 (the baseline), dense above it, weak below it, a system named like markup, and
    dense's history: a regression on its second record, then a recovery; a second dataset
    with a skipped query."""
    skipping = evaluate_run(run(MID), {**QRELS, "q99": {"d1": 0}}, metrics=["ndcg@10"])
    return [
        record("bm25", MID, 0, commit="1111111", tags=("nightly",)),
        record("dense", GOOD, 1, commit="2222222"),
        record("weak", BAD, 2),
        record(SCRIPT_NAME, NOISY, 3),
        record("dense", BAD, 4, commit="3333333", tags=("nightly", "oops")),
        record("dense", GOOD, 5, commit="4444444"),
        Record(system="bm25", dataset="nfcorpus", report=skipping, recorded_at=START),
        record("dense", GOOD, 6, dataset="nfcorpus"),
    ]


class _Tables(HTMLParser):
    """Each table's rows, by the table's id: a row is its cells, each ``(text, classes of
    the marks inside)``."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[tuple[str, set[str]]]]] = {}
        #: Each table's sorted column, its direction, and its cells' sort keys, row by row.
        self.sorted: dict[str, tuple[int, str]] = {}
        self.keys: dict[str, list[list[str]]] = {}
        self._column = 0
        self._table: str | None = None
        self._row: list[tuple[str, set[str]]] | None = None
        self._cell: list[str] | None = None
        self._marks: set[str] = set()
        self._in_body = False
        self._in_mark = False  # a mark's arrow is not the cell's text

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "table":
            self._table = found.get("id") or f"table-{len(self.tables)}"
            self.tables[self._table] = []
            self.keys[self._table] = []
        elif tag == "tr":
            self._column = 0
        elif tag == "th" and not self._in_body and self._table and "aria-sort" in found:
            self.sorted[self._table] = (self._column, str(found["aria-sort"]))
        elif tag == "tbody":
            self._in_body = True
        if tag == "th" and not self._in_body:
            self._column += 1
        if tag == "tr" and self._in_body and self._table:
            self._row = []
            self.keys[self._table].append([])
        if tag in ("td", "th") and self._row is not None and self._table:
            self._cell, self._marks = [], set()
            self.keys[self._table][-1].append(str(found.get("data-key", "")))
        if tag == "sup" and self._cell is not None:
            self._marks |= set((found.get("class") or "").split())
            self._in_mark = True

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._row is not None and self._cell is not None:
            self._row.append(("".join(self._cell).strip(), self._marks))
            self._cell = None
        elif tag == "tr" and self._row is not None and self._table is not None:
            self.tables[self._table].append(self._row)
            self._row = None
        elif tag == "tbody":
            self._in_body = False
        elif tag == "sup":
            self._in_mark = False

    def handle_data(self, data: str) -> None:
        if self._cell is not None and not self._in_mark:
            self._cell.append(data)


def tables(page: str) -> dict[str, list[list[tuple[str, set[str]]]]]:
    return parsed(page).tables


def parsed(page: str) -> _Tables:
    parser = _Tables()
    parser.feed(page)
    return parser
