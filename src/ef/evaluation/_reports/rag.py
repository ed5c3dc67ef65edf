"""RagEvalReport: the outcome of evaluate_rag()."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from .._render import Table, number, pandas_module, plain_text, some
from ..types import frozen_deep, plain
from .fields import (
    brief_metrics,
    field_of,
    frozen_mapping,
    frozen_series,
    mapping_of,
    optional_number_of,
    str_tuple,
)
from .rendered import Summarized

__all__ = ["RagEvalReport"]


def _scored_mean(values: Sequence[float | None]) -> tuple[float | None, int]:
    """The mean of the values that are not ``None`` (``None`` if none is), and their count."""
    count = sum(v is not None for v in values)
    return (math.fsum(v for v in values if v is not None) / count if count else None), count


@attrs.frozen(repr=False)  # attrs' repr would print every sample's values
class RagEvalReport(Summarized):
    """The outcome of :func:`~ef.evaluation.evaluate_rag`: lexical RAG metrics over samples.

    ``metrics`` maps each metric to its mean over the samples it applied to; ``coverage``
    records how many samples that was (a metric needing a reference skips samples without
    one). ``n_samples`` is the total scored. ``per_sample`` holds each metric's value per
    sample, in input order, with ``None`` where the metric did not apply; ``sample_ids`` names
    the samples in that order (a sample's ``id`` key, else its index). ``unanswered`` names
    the samples that have a gold answer but no response, or a blank one: exact match and F1
    score them 0 (see :doc:`/rag`), and every output of the report lists them.

    ``corpus_level`` names the metrics of ``metrics`` that are corpus scores
    (``bleu(level='corpus')``): one number over all the samples it scored (``coverage``
    counts them), not a mean. They have no value per sample, so they are not in
    ``per_sample``, the tables of values per sample leave them out, and
    :func:`~ef.evaluation.compare` refuses to test them.

    >>> report = RagEvalReport(
    ...     metrics={'exact_match': 0.5}, coverage={'exact_match': 4}, n_samples=4)
    >>> report.metrics['exact_match']
    0.5
    """

    metrics: Mapping[str, float | None] = attrs.field(converter=frozen_mapping)
    coverage: Mapping[str, int] = attrs.field(converter=frozen_mapping)
    n_samples: int
    per_sample: Mapping[str, tuple[float | None, ...]] = attrs.field(
        factory=dict,
        converter=frozen_series,
        kw_only=True,
    )
    sample_ids: tuple[str, ...] = attrs.field(default=(), converter=str_tuple, kw_only=True)
    unanswered: tuple[str, ...] = attrs.field(default=(), converter=str_tuple, kw_only=True)
    corpus_level: tuple[str, ...] = attrs.field(default=(), converter=str_tuple, kw_only=True)
    #: How the report was made, to make it again: versions, metric parameters, policies and
    #: the sha256 of the input files (see :doc:`/compare`). Empty for a report built by hand;
    #: not compared by ``==`` (two reports with the same numbers are equal).
    manifest: Mapping[str, Any] = attrs.field(
        factory=dict, converter=frozen_deep, kw_only=True, eq=False
    )

    def __attrs_post_init__(self) -> None:
        for key in self.corpus_level:
            if key not in self.metrics or key in self.per_sample:
                raise ValueError(
                    f"corpus_level names {key!r}, which must be a key of metrics and not of "
                    "per_sample: a corpus score has one value and none per sample"
                )

    @classmethod
    def from_values(
        cls,
        per_sample: Mapping[str, Sequence[float | None]],
        sample_ids: Sequence[str],
        *,
        unanswered: Sequence[str] = (),
        corpus: Mapping[str, tuple[float | None, int]] | None = None,
        order: Sequence[str] = (),
    ) -> RagEvalReport:
        """The report of per-sample values: ``None`` marks a sample a metric did not score.

        Each mean is over the scored samples only, and ``coverage`` counts them. ``corpus``
        adds corpus scores, ``{key: (value, samples scored)}``; ``order`` lists the keys in
        the order the report shows them (by default the per-sample metrics, then the corpus
        scores).

        >>> report = RagEvalReport.from_values({"token_f1": [1.0, None, 0.5]}, ["a", "b", "c"])
        >>> report.metrics["token_f1"], report.coverage["token_f1"], report.n_samples
        (0.75, 2, 3)
        >>> corpus = {"bleu(level='corpus')": (0.4, 2)}
        >>> report = RagEvalReport.from_values({"bleu": [0.5, None, 0.25]}, ["a", "b", "c"],
        ...                                    corpus=corpus)
        >>> report.metrics, report.corpus_level
        ({'bleu': 0.375, "bleu(level='corpus')": 0.4}, ("bleu(level='corpus')",))
        """
        corpus = corpus or {}
        summed = {name: _scored_mean(values) for name, values in per_sample.items()}
        summed.update({key: (value, count) for key, (value, count) in corpus.items()})
        keys = [*dict.fromkeys([*(k for k in order if k in summed), *summed])]
        return cls(
            metrics={key: summed[key][0] for key in keys},
            coverage={key: summed[key][1] for key in keys},
            n_samples=len(sample_ids),
            per_sample=per_sample,
            sample_ids=sample_ids,
            unanswered=unanswered,
            corpus_level=list(corpus),
        )

    def notes(self) -> list[str]:
        """The notes under the tables: the unanswered samples, the first few ids and a count.

        >>> RagEvalReport({}, {}, 3, unanswered=["s2"]).notes()
        ['Unanswered (a gold answer but no response, or a blank one): 1 sample: s2.']
        """
        notes = []
        if self.corpus_level:
            names = ", ".join(self.corpus_level)
            notes.append(
                f"Corpus level: {names}: one score over all the samples it scored (its "
                "coverage), not a mean; no value per sample, so no per-sample detail and no "
                "significance test."
            )
        if self.unanswered:
            count = len(self.unanswered)
            notes.append(
                "Unanswered (a gold answer but no response, or a blank one): "
                f"{count} sample{'s' if count != 1 else ''}: {some(self.unanswered)}."
            )
        return notes

    def to_dict(self) -> dict[str, Any]:
        """Plain dicts and lists, ready for ``json.dumps``.

        >>> RagEvalReport({'token_f1': 1.0}, {'token_f1': 1}, 1).to_dict()['coverage']
        {'token_f1': 1}
        """
        return {
            "metrics": plain(self.metrics),
            "coverage": plain(self.coverage),
            "n_samples": self.n_samples,
            "per_sample": plain(self.per_sample),
            "sample_ids": list(self.sample_ids),
            "unanswered": list(self.unanswered),
            **({"corpus_level": list(self.corpus_level)} if self.corpus_level else {}),
            "manifest": plain(self.manifest),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RagEvalReport:
        """The report of a :meth:`to_dict` form, or of its JSON: null is None (not scored),
        and the string ``"NaN"`` is NaN.

        >>> report = RagEvalReport.from_values({"token_f1": [1.0, None]}, ["a", "b"])
        >>> RagEvalReport.from_dict(report.to_dict()) == report
        True
        """
        what = "RagEvalReport"
        metrics = mapping_of(field_of(data, "metrics", what), "metrics")
        per_sample = mapping_of(data.get("per_sample", {}), "per_sample")
        return cls(
            metrics={k: optional_number_of(v, f"metrics[{k!r}]") for k, v in metrics.items()},
            coverage=field_of(data, "coverage", what),
            n_samples=field_of(data, "n_samples", what),
            per_sample={
                name: [optional_number_of(v, f"per_sample[{name!r}]") for v in values]
                for name, values in per_sample.items()
            },
            sample_ids=data.get("sample_ids", ()),
            unanswered=data.get("unanswered", ()),
            corpus_level=data.get("corpus_level", ()),
            manifest=data.get("manifest", {}),
        )

    def tables(self, *, details: bool = False) -> list[Table]:
        """The tables that show this report: each metric's mean and coverage, then with
        ``details`` the values per sample.

        >>> report = RagEvalReport.from_values({"token_f1": [1.0, 0.5]}, ["a", "b"])
        >>> [table.title for table in report.tables(details=True)]
        ['RAG evaluation: 2 samples', 'per sample']
        """
        return self._tables(details, number)

    def _tables(self, details: bool, cell: Callable[[float | None], str]) -> list[Table]:
        names = list(self.metrics)
        summary = Table(
            ["metric", "mean", "coverage"],
            [
                [n, cell(self.metrics[n]), f"{self.coverage.get(n, 0)}/{self.n_samples}"]
                for n in names
            ],
            title=f"RAG evaluation: {self.n_samples} samples",
            notes=self.notes(),
        )
        if not details:
            return [summary]
        shown = [n for n in names if n in self.per_sample]  # a corpus score has no column
        per_sample = Table(
            ["sample", *shown],
            [
                [sample_id, *(cell(self.per_sample[n][i]) for n in shown)]
                for i, sample_id in enumerate(self.sample_ids)
            ],
            title="per sample",
        )
        return [summary, per_sample]

    def to_pandas(self, *, details: bool = False) -> Any:
        """Each metric's mean and coverage as a :class:`pandas.DataFrame` (a row per metric),
        or with ``details`` the values per sample, a row each. Needs pandas."""
        pd = pandas_module()
        if details:
            data = {name: list(values) for name, values in self.per_sample.items()}
            return pd.DataFrame(data, index=pd.Index(self.sample_ids, name="sample_id"))
        return pd.DataFrame(
            {
                "mean": [self.metrics[n] for n in self.metrics],
                "coverage": [self.coverage.get(n, 0) for n in self.metrics],
            },
            index=pd.Index(list(self.metrics), name="metric"),
        )

    def __repr__(self) -> str:
        # A few lines whatever the size: str() (and the tables) hold the rest.
        size = f"{self.n_samples} samples"
        if self.unanswered:
            size += f" ({len(self.unanswered)} unanswered)"
        return f"<RagEvalReport: {size}, {brief_metrics(self.metrics)}>"

    def __str__(self) -> str:
        return plain_text(self._tables(False, number)[0])  # the title, the means, the notes
