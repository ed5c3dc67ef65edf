"""Helpers for the trec_eval conformance tests: golden-file parsing, name mapping, cached inputs.

Inputs under ``../shared`` are read once per test session (``functools.cache``); callers must
not mutate what they get back. A missing shared folder turns into a skip via ``shared_path``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Literal

from ef.evaluation import evaluate_run, read_qrels, read_run
from ef.evaluation._reports import RetrievalEvalReport

from ..conftest import shared_path

Averaging = Literal["qrels", "intersection"]

#: trec_eval prints every value with "%.4f": half a unit in the last place, plus slack for a
#: value that trec_eval and we compute one ulp apart across a rounding boundary.
PRINT_TOLERANCE = 5e-5 + 1e-12

#: The cutoffs of trec_eval's ``all_trec`` (and default) measure set.
TREC_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)

#: Our name for each parameterised trec_eval measure family.
_FAMILIES = {"P": "precision", "recall": "recall", "ndcg_cut": "ndcg", "map_cut": "map"}
_CUTOFF_MEASURE = re.compile(r"(?P<family>P|recall|ndcg_cut|map_cut)_(?P<k>[0-9]+)")

#: trec_eval's uncut measures, as our key. Every run used here ranks <= 1000 docs per topic
#: (checked by ``check_run_depth``), so the cutoff 1000 cuts nothing.
_UNCUT = {"map": "map@1000", "recip_rank": "mrr@1000"}


def ef_key(trec_measure: str) -> str | None:
    """Our report key for a trec_eval measure name, or None if we do not implement it.

    >>> ef_key("ndcg_cut_10"), ef_key("P_5"), ef_key("map"), ef_key("recip_rank"), ef_key("bpref")
    ('ndcg@10', 'precision@5', 'map@1000', 'mrr@1000', None)
    """
    if trec_measure in _UNCUT:
        return _UNCUT[trec_measure]
    match = _CUTOFF_MEASURE.fullmatch(trec_measure)
    if match is None:
        return None
    return f"{_FAMILIES[match['family']]}@{int(match['k'])}"


class Golden:
    """A trec_eval output: ``values[qid][measure]`` as printed (``%.4f`` strings)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.values: dict[str, dict[str, str]] = {}
        for line_no, line in enumerate(path.read_text().splitlines(), 1):
            if not line.strip():
                continue
            fields = line.split("\t")
            assert len(fields) == 3, f"{path}:{line_no}: not 'measure<pad>\\tqid\\tvalue'"
            measure, qid, value = (field.strip() for field in fields)
            assert measure not in self.values.get(qid, {}), f"{path}:{line_no}: repeated"
            self.values.setdefault(qid, {})[measure] = value

    @property
    def num_q(self) -> int | None:
        """The number of topics averaged, or None if the command did not ask for it."""
        num_q = self.values["all"].get("num_q")
        return None if num_q is None else int(num_q)

    @property
    def query_ids(self) -> set[str]:
        """The topics with per-query rows (empty for an output made without ``-q``)."""
        return set(self.values) - {"all"}

    def implemented(
        self, qid: str, skip: frozenset[str] = frozenset()
    ) -> dict[str, tuple[str, str]]:
        """``{trec_eval measure: (our key, golden string)}`` for the measures we implement.

        Keyed by trec_eval's name: ``map`` and ``map_cut_1000`` are both our ``map@1000``.
        """
        out: dict[str, tuple[str, str]] = {}
        for measure, value in self.values.get(qid, {}).items():
            key = ef_key(measure)
            if key is not None and measure not in skip:
                out[measure] = (key, value)
        return out

    def cutoffs(self, skip: frozenset[str] = frozenset()) -> tuple[int, ...]:
        """The cutoffs our report needs to cover every implemented measure in the file."""
        keys = {key for qid in self.values for key, _ in self.implemented(qid, skip).values()}
        return tuple(sorted({int(key.rsplit("@", 1)[1]) for key in keys}))


def matches_printed(value: float, printed: str) -> bool:
    """Whether trec_eval, printing ``value`` with ``%.4f``, could have written ``printed``.

    Exact string equality is the rule (``+ 0.0`` turns a ``-0.0`` into ``0.0``, which C's
    printf would print as ``-0.0000`` too but trec_eval never produces). A different string
    is accepted only within half a unit in the 4th decimal (plus 1e-12): that is a value
    lying on a rounding boundary, where one ulp of summation order flips the last digit.
    """
    if f"{value + 0.0:.4f}" == printed:
        return True
    return abs(value - float(printed)) <= PRINT_TOLERANCE


def mismatches(
    values: Mapping[str, float], expected: Mapping[str, tuple[str, str]], qid: str
) -> list[str]:
    """One line per measure of ``expected`` (from ``Golden.implemented``) that ``values``
    (our report's ``{key: value}``) does not match or lacks."""
    bad = []
    for measure, (key, printed) in expected.items():
        if key not in values:
            bad.append(f"{qid} {measure}: {key} is not in the report")
        elif not matches_printed(values[key], printed):
            bad.append(f"{qid} {measure}: ours ({key}) {values[key]!r}, trec_eval {printed}")
    return bad


@cache
def load_run(*parts: str) -> dict[str, dict[str, float]]:
    """A run under ``../shared``, read once (``.gz`` is read transparently)."""
    return read_run(shared_path(*parts))


@cache
def load_qrels(*parts: str) -> dict[str, dict[str, float]]:
    """Qrels under ``../shared`` (a TREC file or a BEIR ``qrels/*.tsv``), read once."""
    return read_qrels(shared_path(*parts))


def check_run_depth(run: Mapping[str, Mapping[str, float]]) -> None:
    """trec_eval's ``map``/``recip_rank`` equal our ``@1000`` only for runs of <= 1000 docs."""
    deepest = max(len(docs) for docs in run.values())
    assert deepest <= 1000, f"a topic ranks {deepest} docs; map != map@1000 then"


@cache
def cached_report(
    run: tuple[str, ...], qrels: tuple[str, ...], averaging: Averaging, cutoffs: tuple[int, ...]
) -> RetrievalEvalReport:
    """Our report on shared inputs, for every metric we implement at ``cutoffs`` and uncut."""
    loaded_run = load_run(*run)
    check_run_depth(loaded_run)
    return evaluate_run(
        loaded_run,
        load_qrels(*qrels),
        k_values=cutoffs,
        metrics=("ndcg", "precision", "recall", "map", "map@1000", "mrr@1000"),
        averaging=averaging,
    )
