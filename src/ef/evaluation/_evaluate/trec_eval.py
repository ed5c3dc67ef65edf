"""trec_eval's command on files: read the qrels and the run, then score them as trec_eval.

``ef-eval trec_eval QRELS RUN`` (``ef-trec-eval``) calls :func:`trec_eval_files`; the
semantics are :mod:`ef.evaluation._engine.trec_eval`'s, the printing
:mod:`ef.evaluation._presentation.trec_names`'.
"""

from __future__ import annotations

import contextlib
import os
import sys
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO

from .._engine.doc_overlap import doc_overlap
from .._engine.score_order import score_order
from .._engine.trec_eval import Options, TrecEvalResult, trec_eval_result
from .._formats._arguments import path_argument
from .._formats.sources import is_irds
from .._formats.trec.bytes_reader import read_columns
from .._formats.trec.reader import last_run_tag, read_qrels_lines, read_run_lines
from .._plugin_engine.registry import Registry, registry_or_default
from .._runs.table import RunTable
from ..errors import DatasetFormatError, InputWarning
from ..types import Qrels
from .doc_ids import check_doc_overlap
from .score_order import check_score_order

__all__ = ["STDIN", "read_zscores", "trec_eval_files"]

#: The run path that means standard input.
STDIN = "-"


@contextlib.contextmanager
def _run_file(run: str | os.PathLike[str], stdin: IO[bytes] | None) -> Iterator[Path]:
    """The run's path; standard input (``-``) is copied to a temporary file first, and an
    error or an InputWarning that names that file names ``<stdin>`` instead."""
    if str(run) != STDIN:
        yield Path(run)
        return
    import shutil  # here: a run on standard input is rare, and these load bz2, lzma, random
    import tempfile

    source = stdin if stdin is not None else sys.stdin.buffer
    with tempfile.TemporaryDirectory(prefix="ef-trec-eval-") as tmp:
        path = Path(tmp, "stdin.run")
        with open(path, "wb") as out:
            shutil.copyfileobj(source, out)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", InputWarning)
            try:
                yield path
            except (DatasetFormatError, ValueError) as exc:
                message = str(exc).replace(str(path), "<stdin>")
                raise type(exc)(message) from None
        for notice in caught:  # again, renamed, under the caller's filters
            text = str(notice.message).replace(str(path), "<stdin>")
            warnings.warn_explicit(text, notice.category, notice.filename, notice.lineno)


def trec_eval_files(
    qrels: str | os.PathLike[str],
    run: str | os.PathLike[str],
    measures: Sequence[str] = (),
    opts: Options | None = None,
    *,
    zscores: str | os.PathLike[str] | None = None,
    stdin: IO[bytes] | None = None,
    registry: Registry | None = None,
) -> TrecEvalResult:
    """trec_eval's output for the TREC qrels file ``qrels`` (or an ``irds:<dataset-id>``,
    scored at ``-l`` as trec_eval would score its qrels) and the TREC run ``run`` (``-``:
    standard input), as values; ``measures`` are ``-m`` arguments (``official`` if none);
    ``zscores`` is ``-Z``'s file of ``qid measure mean stddev`` lines.

    Raises:
        FileNotFoundError: a file does not exist.
        DatasetFormatError: (a ``ValueError``) a line of either file is malformed; the error
            names the file and line.
        ValueError: for a measure trec_eval would not take, or no query in common.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     qrels, run = pathlib.Path(tmp, "qrels"), pathlib.Path(tmp, "run")
    ...     _ = qrels.write_text("q1 0 d1 1\\n")
    ...     _ = run.write_text("q1 Q0 d1 1 2.0 bm25\\nq1 Q0 d2 2 1.0 bm25\\n")
    ...     result = trec_eval_files(qrels, run, ["P.2", "runid"])
    >>> [c.name for c in result.columns], result.summary
    (['runid', 'P_2'], ('bm25', 0.5))
    """
    opts = opts or Options()
    registry = registry_or_default(registry)
    # trec_eval 9.0.8 has no comment lines: a '#' line with a data line's shape is data to
    # it (query '#5'), and so to ef here; 10.0 skips it, and ef warns of it.
    hash_data = opts.version == "9.0.8"
    judged: Qrels
    if is_irds(qrels):  # an ir_datasets id: no file, no '#' lines
        judged = _irds_qrels(qrels, opts)
    elif hash_data:
        source = path_argument(qrels, "trec_eval_files(qrels, run)", "qrels")
        judged = read_qrels_lines(source, hash_data=True)
    else:
        from .._formats.files import read_qrels  # here: 9.0.8, the default, reads lines itself

        judged = read_qrels(qrels, "trec", registry=registry)
    means = None if zscores is None else read_zscores(Path(zscores))
    with _run_file(run, stdin) as path:
        table = _run_table(path, hash_data, registry)
        # A note, in ef-trec-eval (stdin named as <stdin> by _run_file).
        check_score_order(score_order(table), stacklevel=2, name=f"the run {path}")
        tag = last_run_tag(path, hash_data=hash_data)
        if tag is None:
            raise DatasetFormatError(
                f"{path}: the last line has no run tag (6th column); trec_eval prints it as runid"
            )
        result = trec_eval_result(
            table, judged, measures, opts, runid=tag, zscores=means, registry=registry
        )
    # What evaluate_run would refuse or warn of in the run's doc ids (cacm-1938 against
    # CACM-1938: every query scores 0), as an InputWarning (a warning: line in ef-trec-eval):
    # trec_eval prints its numbers whatever the doc ids, and so must its drop-in, on stdout.
    overlap = doc_overlap(table, judged, result.query_ids, whole=True)
    check_doc_overlap(overlap, stacklevel=2, refuse=False)
    return result


def _irds_qrels(source: str, opts: Options) -> Qrels:
    """The qrels of the ir_datasets id ``source``. trec_eval's level is ``-l``, whatever
    the dataset's official measures name: its numbers are trec_eval's on the same
    judgements. Where they name a level other than ``-l``, an InputWarning says so."""
    from .._formats._io import caller_stacklevel
    from .._formats.irds import graded, official_measures, read_irds, relevance_level

    qrels: dict[str, dict[str, float]] = read_irds(source, "read_qrels", note=False)
    if graded(qrels):
        level, why = relevance_level(official_measures(source))
        if level != opts.rel_level:
            warnings.warn(
                InputWarning(
                    f"{source}: ir_datasets records no relevance level; {why}: -l {level} "
                    f"applies it (grades from {opts.rel_level} count as relevant here)"
                ),
                stacklevel=caller_stacklevel(),
            )
    return qrels


def _run_table(path: Path, hash_data: bool, registry: Registry) -> RunTable:
    """The run, its ``#`` lines of a run line's shape read as data if ``hash_data``: the
    fast reader leaves a file with one to the reference reader, which then reads them."""
    if not hash_data:
        return RunTable.read(path, "trec", registry=registry)
    columns = read_columns(path, digest=False)  # no manifest: no sha256 of the bytes
    if columns is not None:
        return RunTable.from_columns(columns)
    return RunTable.from_dict(read_run_lines(path, hash_data=True), listed=True)


def read_zscores(path: Path) -> dict[str, dict[str, tuple[float, float]]]:
    """``{query: {measure: (mean, stddev)}}`` from trec_eval's ``-Z`` file of
    ``qid measure mean stddev`` lines.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = Path(tmp, "z")
    ...     _ = path.write_text("301 P_10 0.42 0.31\\n")
    ...     read_zscores(path)
    {'301': {'P_10': (0.42, 0.31)}}
    """
    from .._formats._io import format_error, numbered_lines
    from .._formats._records import fields_of

    def number(text: str, line_no: int, line: str, what: str) -> float:
        try:
            return float(text)  # trec_eval's atof: "nan" and "inf" are numbers too
        except ValueError:
            raise format_error(path, line_no, f"{what} {text!r} is not a number", line) from None

    found: dict[str, dict[str, tuple[float, float]]] = {}
    for line_no, line in numbered_lines(path, comments=True):
        query_id, measure, mean, stddev = fields_of(line, "qid measure mean stddev", path, line_no)
        by_measure = found.setdefault(query_id, {})
        if measure in by_measure:
            raise format_error(path, line_no, f"{measure} is given twice for {query_id!r}", line)
        by_measure[measure] = (
            number(mean, line_no, line, "mean"),
            number(stddev, line_no, line, "stddev"),
        )
    return found
