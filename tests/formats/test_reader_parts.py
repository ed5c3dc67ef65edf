"""The numpy TREC reader's parse in parts on threads: where it cuts a file's bytes, when it
parses in two parts, and that the columns are those of one part (the differential fuzz test
reads every case in two and three parts against the reference reader as well)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ef.evaluation._formats.trec import bytes_reader
from ef.evaluation._formats.trec.bytes_reader import PARALLEL_BYTES, columns_of

_LINES = st.lists(st.binary(min_size=0, max_size=12).map(lambda b: b.replace(b"\n", b"")))


@given(_LINES, st.booleans(), st.integers(1, 5))
def test_the_parts_are_whole_lines_covering_the_bytes(
    lines: list[bytes], last_ends: bool, parts: int
) -> None:
    data = b"\n".join(lines) + (b"\n" if last_ends and lines else b"")
    spans = bytes_reader._line_parts(data, parts)
    assert 0 < len(spans) <= parts or (not data and not spans)
    assert b"".join(data[start:stop] for start, stop in spans) == data
    assert all(stop > start for start, stop in spans)
    for _start, stop in spans[:-1]:  # every cut is just after a LF
        assert data[stop - 1 : stop] == b"\n"
    assert [start for start, _ in spans[1:]] == [stop for _, stop in spans[:-1]]


def _run_bytes(size: int) -> bytes:
    """A plain run of about ``size`` bytes: ids of other widths, queries of many lengths."""
    rng = random.Random(7)
    lines, total, query = [], 0, 0
    while total < size:
        query += 1
        for rank in range(1, rng.randint(1, 400)):
            doc = f"doc{rng.randint(0, 10 ** rng.randint(1, 9))}"
            line = f"q{query} Q0 {doc}-{rank} {rank} {rng.uniform(-5, 50):.6f} bm25\n".encode()
            lines.append(line)
            total += len(line)
    return b"".join(lines)


@pytest.mark.parametrize("cores", [1, 2])
def test_a_large_run_is_parsed_in_two_parts_where_two_cores_are_free(
    monkeypatch: pytest.MonkeyPatch, cores: int
) -> None:
    data = _run_bytes(PARALLEL_BYTES + 4096)
    cuts: list[int] = []
    cut = bytes_reader._line_parts

    def counted(data: bytes, parts: int) -> list[tuple[int, int]]:
        cuts.append(parts)
        return cut(data, parts)

    monkeypatch.setattr(bytes_reader, "_free_cores", lambda: cores)
    monkeypatch.setattr(bytes_reader, "_line_parts", counted)
    parsed, alone = columns_of(data), columns_of(data, parts=1)
    assert cuts == [cores, 1]
    assert parsed is not None
    assert alone is not None
    assert parsed.query_ids == alone.query_ids
    for name in ("offsets", "scores", "docs", "hashes"):
        got, want = getattr(parsed, name), getattr(alone, name)
        assert got.dtype == want.dtype, name
        assert np.array_equal(got, want), name
    # A run below the size is parsed whole, however many cores there are.
    columns_of(data[: data.index(b"\n", PARALLEL_BYTES // 2) + 1])
    assert cuts[-1] == 1


def test_a_part_declined_declines_the_whole_run() -> None:
    data = _run_bytes(1 << 16)
    late = data.rindex(b" Q0 ")
    tabbed = data[:late] + b"\tQ0 " + data[late + 4 :]  # a tab in the last part only
    assert columns_of(data, parts=2) is not None
    assert columns_of(tabbed, parts=2) is None
    assert columns_of(tabbed, parts=1) is None
