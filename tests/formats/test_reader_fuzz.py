"""A differential fuzz test of the TREC run readers (DESIGN §6: the same result or the same
error on every input).

Byte strings are built from TREC-like fragments: 6-column lines and short and long ones,
separators of a space, a tab or several spaces, LF, CRLF and CR line ends, NUL, byte-order
marks at the start and in the middle, blank, whitespace-only and comment lines, non-ASCII
docnos, huge, NaN, infinite and underscored scores, gzip or not. For each, each fast reader
(polars, and numpy's for small and mid-size files) either gives the reference reader's run,
or declines and the reference reader raises a ``DatasetFormatError`` naming the file and a
line; nothing else may happen. 300 examples by default (a few seconds);
``EF_FUZZ_EXAMPLES=20000`` for a longer search.
"""

from __future__ import annotations

import functools
import gzip
import os
import re
import tempfile
import warnings
from collections.abc import Callable
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ef.evaluation import DatasetFormatError, InputWarning, RunTable
from ef.evaluation._formats.trec.bytes_reader import read_trec_bytes
from ef.evaluation._formats.trec.fast import RunColumns, read_trec_columns
from ef.evaluation._formats.trec.reader import read_run_lines

from ..profiles_hypothesis import examples

# Clean fragments, which the fast reader should read, and noisy ones, which test the contract.
CLEAN_QUERY_IDS = [b"q1", b"q2", b"301", b"q\xc3\xa9"]
NOISY_QUERY_IDS = [b"#q", b"q\x00", b"\xef\xbb\xbfq1", b"q\xe3\x80\x801"]  # ..., U+3000
CLEAN_DOC_IDS = [
    b"CR#93E-1860",
    b"caf\xc3\xa9",  # cafe with an acute e
    b"\xe6\x96\x87\xe6\xa1\xa3",  # two CJK characters
    b'"d"',
]
NOISY_DOC_IDS = [
    b"d\xc2\xa0x",  # a no-break space
    b"d\x00x",
    b"d\x1cx",
    b"d\x7fx",
    b"\xef\xbb\xbfd",  # a byte-order mark
    b"d\xff",  # not UTF-8
    b"d\xc2\x85x",  # NEL
]
CLEAN_SCORES = [
    b"1",
    b"2.5",
    b"-3.25",
    b"0",
    b"+.5",
    b"5.",
    b"1e3",
    b"1E-5",
    b"00012",
    b"0.1000000000000000055511151231257827",
    b"4.9e-325",
    b"1.7976931348623157e308",
]
NOISY_SCORES = [
    b"1e999",
    b"-1e999",
    b"nan",
    b"NaN",
    b"inf",
    b"-Infinity",
    b"1_0",
    b"0x10",
    b"1e",
    b".",
    b"high",
    b"\xef\xbc\x91",  # a fullwidth one
]
NOISY_SEPARATORS = [b"\t", b"  ", b" \t", b"\x0b", b"\x0c", b"\xc2\xa0"]
NOISY_LINE_ENDS = [b"\r\n", b"\r", b"\r\r\n", b""]


ASPECTS = ["kind", "query", "doc", "score", "separator", "lead", "trail", "line end"]


@st.composite
def run_lines(draw: st.DrawFn, noisy: bool) -> bytes:
    """One line and its line end: clean, or with one or two of its aspects made noisy."""
    bad = draw(st.sets(st.sampled_from(ASPECTS), min_size=1, max_size=2)) if noisy else set()
    end = draw(st.sampled_from(NOISY_LINE_ENDS)) if "line end" in bad else b"\n"
    kind = "run"
    if "kind" in bad:
        kind = draw(
            st.sampled_from(
                ["five", "five ", "five ", "short", "long", "blank", "spaces", "comment", "bom"]
            )
        )
    if kind == "blank":
        return end
    if kind == "spaces":
        return draw(st.sampled_from([b" ", b" ", b"  ", b"\t", b" \t ", b"     "])) + end
    if kind == "comment":
        comment = draw(
            st.sampled_from(
                [
                    b"# qid Q0 docno rank score tag",
                    b"  # indented",
                    b"#",
                    b"#5 Q0 d1 1 2.5 t",  # a run line's shape: a query '#5', or commented out?
                    b"  #5 Q0 d2 1 1 t",
                    b"# 5 Q0 d1 1 2.5 t",  # a space after '#': a comment, said so
                ]
            )
        )
        return comment + end
    if kind == "bom":
        return b"\xef\xbb\xbf" + b"q1 Q0 d9 1 1 t" + end
    query = draw(st.sampled_from(NOISY_QUERY_IDS if "query" in bad else CLEAN_QUERY_IDS))
    doc = b"d%d" % draw(st.integers(0, 999))  # a doc twice: now and then
    if "doc" in bad:
        doc = draw(st.sampled_from(NOISY_DOC_IDS))
    elif draw(st.integers(0, 9)) == 0:  # rarely: a "#" makes the fast reader look for comments
        doc = draw(st.sampled_from(CLEAN_DOC_IDS)) + doc
    score = draw(st.sampled_from(NOISY_SCORES if "score" in bad else CLEAN_SCORES))
    fields = [query, b"Q0", doc, b"%d" % draw(st.integers(0, 9)), score, b"tag"]
    if kind.startswith("five"):  # the tag missing: the space count must still see it
        fields = fields[:5] + ([b""] if kind == "five " else [])  # "five " ends in a space
    elif kind == "short":
        fields = fields[: draw(st.integers(1, 4))]
    elif kind == "long":
        fields += [b"extra"] * draw(st.integers(1, 2))
    seps = [b" "] * (len(fields) - 1)
    if "separator" in bad and seps:
        seps[draw(st.integers(0, len(seps) - 1))] = draw(st.sampled_from(NOISY_SEPARATORS))
    line = fields[0] + b"".join(sep + field for sep, field in zip(seps, fields[1:], strict=True))
    lead = draw(st.sampled_from([b" ", b"\t"])) if "lead" in bad else b""
    trail = draw(st.sampled_from([b" ", b" ", b"\t", b"\x00"])) if "trail" in bad else b""
    return lead + line + trail + end


@st.composite
def run_files(draw: st.DrawFn) -> tuple[bytes, bool]:
    """Clean lines with up to three noisy ones among them, gzipped now and then."""
    lines = draw(st.lists(run_lines(noisy=False), min_size=0, max_size=10))
    if draw(st.booleans()):
        lines.sort()  # each query's lines together, as runs have them
    for _ in range(draw(st.sampled_from([0, 0, 1, 1, 2, 3]))):
        lines.insert(draw(st.integers(0, len(lines))), draw(run_lines(noisy=True)))
    body = b"".join(lines)
    if draw(st.booleans()):
        body = body.removesuffix(b"\n")  # no line end after the last line
    if draw(st.integers(0, 9)) == 0:
        body = b"\xef\xbb\xbf" + body
    return body, draw(st.integers(0, 3)) == 0


_LOCATED = re.compile(r":(\d+): ")


def _warned(read: Callable[[], object]) -> tuple[object, list[str]]:
    """What ``read`` returns (or raises), and the InputWarnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", InputWarning)
        try:
            got: object = read()
        except DatasetFormatError as exc:
            got = exc
    return got, [str(w.message) for w in caught if issubclass(w.category, InputWarning)]


def read_trec_bytes_unhashed(path: Path) -> RunColumns | None:
    """The numpy reader as ef-trec-eval calls it: a plain file memory-mapped."""
    return read_trec_bytes(path, digest=False)


def read_trec_bytes_in_parts(path: Path) -> RunColumns | None:
    """The numpy reader with the lines parsed in two parts on two threads, as it parses a
    file of PARALLEL_BYTES or more."""
    return read_trec_bytes(path, parts=2)


def read_trec_bytes_in_three_parts(path: Path) -> RunColumns | None:
    """The same in three parts: a query's lines may straddle two cuts."""
    return read_trec_bytes(path, digest=False, parts=3)


# The cases found on main, every run whatever the seed.
@example((b"q\xc3\xa9 Q0 d\x7fx 0 1 tag\n", True))  # a DEL in a file with non-ASCII bytes
@example((b"q1 Q0 d1 1 2.5 \n", False))  # five columns and a trailing space
@example((b"q1 Q0 d1 1 2.5\n \nq1 Q0 d2 1 2.5 t\n", False))  # balanced by a blank line
@example((b"q1 Q0 d1 1 2.5 t\rq1 Q0 d2 2 1 t\r", True))  # CR-only line ends
@example((b"q1 Q0 d\x001 1 2.5 t\n", False))  # a NUL in a docno
@example((b"q1 Q0 d1 1 2.5 t\n\xef\xbb\xbfq1 Q0 d2 1 2.5 t\n", False))  # a BOM mid-file
@example(("q1 Q0 d\u00a01 1 2.5 t\n".encode(), True))  # a no-break space in a docno
@example((b"q1 Q0 d1 1 2.5 t\n#5 Q0 d2 1 0.9 t\n", False))  # a '#' query, or commented out
# The last fields within the widest id's width of the file's end, with a short tag.
@example((b"q1 Q0 averyveryverylongdocid 1 2.5 t\nq22 Q0 d2 2 1.5 t\nq3 Q0 d 1 .25 t", False))
@settings(
    max_examples=int(os.environ.get("EF_FUZZ_EXAMPLES", examples(300))),
    suppress_health_check=[HealthCheck.too_slow],
)
@given(run_files())
def test_the_fast_reader_agrees_with_the_reference_reader(case: tuple[bytes, bool]) -> None:
    content, gzipped = case
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp, "run.trec")
        path.write_bytes(gzip.compress(content) if gzipped else content)
        reference, reference_warnings = _warned(lambda: read_run_lines(path))
        assert isinstance(reference, (dict, DatasetFormatError))
        # Both fast readers: polars (large files) and numpy (small and mid-size ones), which
        # maps a plain file into memory where it records no digest (ef-trec-eval), and
        # parses a larger file's lines in parts on threads.
        for read in (
            read_trec_columns,
            read_trec_bytes,
            read_trec_bytes_unhashed,
            read_trec_bytes_in_parts,
            read_trec_bytes_in_three_parts,
        ):
            columns, fast_warnings = _warned(functools.partial(read, path))  # may not raise
            assert not isinstance(columns, DatasetFormatError)
            assert not fast_warnings
            if columns is not None:
                assert isinstance(columns, RunColumns)
                assert not isinstance(reference, DatasetFormatError), (
                    f"{read.__name__} read a file the reference reader refuses: {reference}"
                )
                # A '#' line with a run line's shape is never dropped by a fast reader unsaid.
                assert not reference_warnings, reference_warnings
                fast = RunTable.from_columns(columns)
                expected = RunTable.from_dict(reference)
                assert fast.to_dict() == expected.to_dict()
                assert fast.query_ids == expected.query_ids
                # The same scores to the bit (-0.0 and 0.0 differ here, not in ==).
                assert fast.original_scores.tobytes() == expected.original_scores.tobytes()
        if isinstance(reference, DatasetFormatError):
            message = str(reference)
            assert message.startswith(f"{path}:"), message
            # An empty file has no line to name; every other refusal names one.
            assert _LOCATED.match(message, len(str(path))) or "the file is empty" in message
        # The public path (fast where it can, else the reference) gives the same outcome,
        # with the same warnings.
        table, public_warnings = _warned(lambda: RunTable.read(path, format="trec"))
        if isinstance(reference, DatasetFormatError):
            assert isinstance(table, DatasetFormatError)
            assert str(table) == str(reference)
        else:
            assert isinstance(table, RunTable)
            assert table.to_dict() == reference
            assert public_warnings == reference_warnings
