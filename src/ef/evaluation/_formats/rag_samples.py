"""RAG samples on disk: JSONL (one RagSample object per line) and CSV (one per row).

JSONL is what Ragas' ``EvaluationDataset.to_jsonl`` writes, so its exports read as they are.
In CSV, list and mapping fields (``retrieved_contexts``, ``rubrics``, ...) are cells holding a
JSON array or object; cells holding a Python list literal, as pandas' ``to_csv`` (and so
Ragas' ``to_csv``) writes them, are read too. An empty cell is an absent field. Keys that are
not RagSample fields (an ``id``) are kept as they are.
"""

from __future__ import annotations

import ast
import io
import os
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..errors import InvalidSampleError
from ..interfaces import DatasetFormat
from ..types import (
    CLAIMS_KEY,
    NA_PROB_KEY,
    NUGGETS_KEY,
    SAMPLE_FIELDS,
    sample_where,
    validate_sample,
)
from ._io import atomic_writer, format_error, json_lines, load_json, parse_json, read_text

__all__ = [
    "CSV_FORMAT",
    "EXTRA_KEYS",
    "JSONL_FORMAT",
    "OLD_RAGAS_NAMES",
    "check_sample_keys",
    "looks_like_csv_samples",
    "looks_like_jsonl_samples",
    "read_csv_samples",
    "read_jsonl_samples",
    "write_csv_samples",
    "write_jsonl_samples",
]

#: Fields whose CSV cell holds a list or a mapping.
_STRUCTURED = frozenset(
    {
        "retrieved_contexts",
        "reference_contexts",
        "retrieved_context_ids",
        "reference_context_ids",
        "multi_responses",
        "rubrics",
        "references",  # not a Ragas field: further gold answers (EXTRA_KEYS)
        "reference_context_grades",  # nor this: {id: grade} (EXTRA_KEYS)
        NUGGETS_KEY,  # the nuggets and their assignments (EXTRA_KEYS)
        CLAIMS_KEY,  # the claims and their entailment labels (EXTRA_KEYS)
    }
)


#: Ragas' names before 0.2, and the field that replaced each.
OLD_RAGAS_NAMES = {
    "question": "user_input",
    "answer": "response",
    "contexts": "retrieved_contexts",
    "ground_truth": "reference",
    "ground_truths": "reference",
}

#: Keys beside the RagSample fields that ef gives a meaning to (DESIGN §4). Any other key is
#: kept too (the Ragas round trip keeps extra keys), and one starting with ``_`` is never
#: taken for a misspelt field.
EXTRA_KEYS = frozenset(
    {"id", "references", "reference_context_grades", NUGGETS_KEY, CLAIMS_KEY, NA_PROB_KEY}
)
#: The extra keys a metric scores on their own: a sample with only these has something to score.
_SCORED_EXTRA_KEYS = (NUGGETS_KEY, CLAIMS_KEY)


def _suggestion(key: str) -> str | None:
    """The field ``key`` probably means: a Ragas old name's successor, or a close spelling."""
    if key in OLD_RAGAS_NAMES:
        return OLD_RAGAS_NAMES[key]
    if key in EXTRA_KEYS or key.startswith("_"):
        return None
    import difflib  # here: an unknown field only

    close = difflib.get_close_matches(key.lower(), SAMPLE_FIELDS, n=1, cutoff=0.8)
    return close[0] if close else None


def _renames(keys: Iterable[str]) -> str:
    return ", ".join(f"{key!r} -> {new!r}" for key in keys if (new := _suggestion(key)) is not None)


def check_sample_keys(
    samples: Sequence[Mapping[str, Any]], source: str = "the samples", *, stacklevel: int = 2
) -> None:
    """Refuse samples that use no RagSample field; warn of keys that look like misspelt ones.

    Every metric would skip such samples and score nothing, so a file in Ragas' old names
    (``question``, ``answer``, ``contexts``, ``ground_truth``) would read as a report with no
    number in it. ``source`` names the samples in messages (a file's path). A key is taken for
    a misspelling when it is an old Ragas name, or close to a field (``difflib``); the other
    keys beside the fields are allowed silently.

    >>> check_sample_keys([{"question": "q", "answer": "a"}], "old.jsonl")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    ef.evaluation.InvalidSampleError: old.jsonl: no sample has a RagSample field ...
    """
    keys = dict.fromkeys(k for sample in samples for k in sample)
    scored = (*SAMPLE_FIELDS, *_SCORED_EXTRA_KEYS)
    if not any(sample.get(field) is not None for sample in samples for field in scored):
        raise InvalidSampleError(
            f"{source}: no sample has a RagSample field ({', '.join(SAMPLE_FIELDS[:8])}, ...), "
            f"so every metric would score nothing; {_no_field_hint(keys)}"
        )
    suspects = [k for k in keys if k not in SAMPLE_FIELDS and _suggestion(k) is not None]
    if suspects:
        _warn_misspelt_keys(samples, suspects, source, stacklevel=stacklevel + 1)


def _no_field_hint(keys: dict[str, None]) -> str:
    """What to do about samples none of whose ``keys`` is a RagSample field."""
    renames = _renames(keys)
    if any(k in OLD_RAGAS_NAMES for k in keys):
        return f"rename {renames} (Ragas' names since 0.2)"
    if renames:
        return f"did you mean {renames}?"
    return f"the keys are {', '.join(map(repr, keys)) or '(none)'}"


def _warn_misspelt_keys(
    samples: Sequence[Mapping[str, Any]], suspects: list[str], source: str, *, stacklevel: int
) -> None:
    first = next(i for i, sample in enumerate(samples) if suspects[0] in sample)
    where = sample_where(samples[first], first)
    warnings.warn(
        f"{source}: keys that are not RagSample fields look like misspelt ones, and no "
        f"metric reads them: {_renames(suspects)} (first in {where}). Rename them, or "
        "prefix a key of your own with '_'.",
        UserWarning,
        stacklevel=stacklevel + 1,
    )


def _suffixes(path: str | os.PathLike[str]) -> list[str]:
    suffixes = [s.lower() for s in Path(path).suffixes]
    return suffixes[:-1] if suffixes[-1:] == [".gz"] else suffixes


def looks_like_jsonl_samples(path: str | os.PathLike[str]) -> bool:
    """True for a ``.jsonl`` (or ``.jsonl.gz``) name; the file need not exist yet."""
    return _suffixes(path)[-1:] == [".jsonl"] and not Path(path).is_dir()


def looks_like_csv_samples(path: str | os.PathLike[str]) -> bool:
    """True for a ``.csv`` (or ``.csv.gz``) name; the file need not exist yet."""
    return _suffixes(path)[-1:] == [".csv"] and not Path(path).is_dir()


def _checked(sample: object, path: Path, line_no: int, index: int) -> dict[str, Any]:
    try:
        checked = validate_sample(sample, index)
    except InvalidSampleError as exc:
        raise format_error(path, line_no, str(exc)) from None
    return dict(checked)


def read_jsonl_samples(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """Read RagSamples from a JSONL file, one JSON object per line.

    Raises ``DatasetFormatError`` naming the file and line for bad JSON or a malformed sample.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = pathlib.Path(tmp, "samples.jsonl")
    ...     write_jsonl_samples(path, [{"id": "s1", "response": "Paris"}])
    ...     read_jsonl_samples(path)
    [{'id': 's1', 'response': 'Paris'}]
    """
    source = Path(path)
    samples: list[dict[str, Any]] = []
    for line_no, _, record in json_lines(source):
        samples.append(_checked(record, source, line_no, len(samples)))
    return samples


def _cell(field: str, text: str, path: Path, line_no: int) -> Any:
    if field == NA_PROB_KEY:
        return _number_cell(field, text, path, line_no)
    if field not in _STRUCTURED:
        return text
    import json  # here, as below: a run's format detection reads no sample

    try:
        load_json(text, path, line_no)  # the parser's limits are named by the line
    except json.JSONDecodeError:
        pass  # perhaps a Python literal
    else:
        return parse_json(text, path, line_no)  # again, refusing a key given twice
    try:
        # pandas writes list cells as Python literals: "['a', 'b']".
        return ast.literal_eval(text)
    except RecursionError:
        raise format_error(path, line_no, f"{field!r} is nested too deeply to read") from None
    except (ValueError, SyntaxError, MemoryError):
        raise format_error(
            path, line_no, f"{field!r} must be a JSON array or object, got {text[:60]!r}"
        ) from None


def _number_cell(field: str, text: str, path: Path, line_no: int) -> float:
    try:
        return float(text)
    except ValueError:
        problem = f"{field!r} must be a number, got {text[:60]!r}"
        raise format_error(path, line_no, problem) from None


def read_csv_samples(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """Read RagSamples from a CSV file with a header row of field names.

    An empty cell is an absent field: CSV cannot tell an empty string from a missing value
    (pandas reads both as NaN). Use JSONL where an empty ``response`` must stay one.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = pathlib.Path(tmp, "samples.csv")
    ...     write_csv_samples(path, [{"response": "Paris", "retrieved_contexts": ["a", "b"]}])
    ...     read_csv_samples(path)
    [{'retrieved_contexts': ['a', 'b'], 'response': 'Paris'}]
    """
    import csv  # the CSV format's: not loaded with the other formats

    source = Path(path)
    reader = csv.reader(io.StringIO(read_text(source), newline=""))
    header = _csv_header(reader, source)
    samples: list[dict[str, Any]] = []
    for line_no, row in _csv_rows(reader, source):
        if len(row) != len(header):
            raise format_error(source, line_no, f"expected {len(header)} columns, got {len(row)}")
        record = {
            field: _cell(field, text, source, line_no)
            for field, text in zip(header, row, strict=True)
            if text != ""
        }
        samples.append(_checked(record, source, line_no, len(samples)))
    return samples


def _csv_header(reader: Any, source: Path) -> list[str]:
    """The header row: field names, none empty and none repeated."""
    import csv

    try:
        header: list[str] = next(reader)
    except StopIteration:
        raise format_error(
            source, 1, "the file is empty; expected a header row of field names"
        ) from None
    except csv.Error as exc:
        raise format_error(source, reader.line_num, f"unreadable CSV: {exc}") from None
    if len(set(header)) != len(header) or not all(header):
        raise format_error(source, 1, "the header has empty or repeated column names")
    return header


def _csv_rows(reader: Any, source: Path) -> Iterator[tuple[int, list[str]]]:
    """The rows after the header that are not blank lines, each with the line it starts on."""
    import csv

    while True:
        line_no = reader.line_num + 1  # where the next record starts
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise format_error(source, line_no, f"unreadable CSV: {exc}") from None
        if row:
            yield line_no, row


def _validated(samples: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return [validate_sample(sample, index) for index, sample in enumerate(samples)]


def write_jsonl_samples(path: str | os.PathLike[str], samples: Iterable[Mapping[str, Any]]) -> None:
    """Write RagSamples as JSONL, atomically (a temporary file renamed when complete)."""
    import json

    rows = _validated(samples)
    with atomic_writer(Path(path)) as out:
        for sample in rows:
            out.write(json.dumps(dict(sample)) + "\n")


def write_csv_samples(path: str | os.PathLike[str], samples: Iterable[Mapping[str, Any]]) -> None:
    """Write RagSamples as CSV: SingleTurnSample fields first, then other keys in first-seen order.

    List and mapping fields are written as JSON; absent fields as empty cells. Atomic.
    """
    import csv

    rows = _validated(samples)
    header = _csv_columns(rows)
    with atomic_writer(Path(path)) as out:
        # RFC 4180 line ends: with "\r\n" as terminator, csv quotes any cell holding \r or \n.
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow(header)
        for sample in rows:
            writer.writerow([_to_cell(sample.get(field)) for field in header])


def _csv_columns(rows: list[Mapping[str, Any]]) -> list[str]:
    """The fields some row holds: SingleTurnSample's first, then the others as first seen."""
    seen: dict[str, None] = {}
    for sample in rows:
        seen.update(dict.fromkeys(k for k, v in sample.items() if v is not None))
    header = [f for f in SAMPLE_FIELDS if f in seen] + [k for k in seen if k not in SAMPLE_FIELDS]
    # Samples with no fields at all still need one column, or their rows would vanish.
    return header or ["user_input"]


def _to_cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, tuple, Mapping)):
        import json

        return json.dumps(value if not isinstance(value, tuple) else list(value))
    return str(value)


#: The two formats' declarations, which ``_default_plugins/formats.py`` registers.
JSONL_FORMAT = DatasetFormat(
    name="rag_jsonl",
    read_samples=read_jsonl_samples,
    write_samples=write_jsonl_samples,
    detect=looks_like_jsonl_samples,
    description="RAG samples, one JSON object per line (as Ragas' to_jsonl writes).",
)
CSV_FORMAT = DatasetFormat(
    name="rag_csv",
    read_samples=read_csv_samples,
    write_samples=write_csv_samples,
    detect=looks_like_csv_samples,
    description="RAG samples, one per CSV row; list fields as JSON (or Python) lists.",
)
