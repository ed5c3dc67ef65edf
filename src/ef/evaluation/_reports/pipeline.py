"""PipelineEvalReport: the outcome of evaluate_pipeline(), retrieval and answers side by side."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from .._render import Table, number, pandas_module, plain_text
from ..types import FrozenDict, frozen_deep, plain
from .fields import brief_metrics, field_of, frozen_mapping, mapping_of
from .rag import RagEvalReport
from .rendered import Summarized
from .retrieval import RetrievalEvalReport, per_query_table, tie_note

__all__ = ["PipelineEvalReport"]


def _samples(value: Sequence[Mapping[str, Any]]) -> tuple[Mapping[str, Any], ...]:
    return tuple(frozen_deep(sample) for sample in value)


def _retrieval_of(
    value: RetrievalEvalReport | Mapping[str, Any] | None,
) -> RetrievalEvalReport | None:
    if value is None or isinstance(value, RetrievalEvalReport):
        return value
    return RetrievalEvalReport.from_dict(value)


def _rag_of(value: RagEvalReport | Mapping[str, Any]) -> RagEvalReport:
    return value if isinstance(value, RagEvalReport) else RagEvalReport.from_dict(value)


@attrs.frozen(repr=False)  # attrs' repr would print every query's values and samples
class PipelineEvalReport(Summarized):
    """The outcome of :func:`~ef.evaluation.evaluate_pipeline`: a retriever and a generator
    scored on the same queries, in one report.

    ``retrieval`` is the :class:`RetrievalEvalReport` of the rankings (``None`` when there
    were no qrels), ``rag`` the :class:`RagEvalReport` of the answers, and ``samples`` the
    RagSamples that were scored, one per query, each with the query id as its ``id``
    (:func:`~ef.evaluation.write_samples` saves them). ``per_query`` holds both kinds of
    value under each query id, and ``metrics`` both kinds of mean; a RAG value is ``None``
    where the metric did not apply (no reference). ``skipped`` maps each query that was not
    run, or not scored, to why.

    >>> retrieval = RetrievalEvalReport({"ndcg@10": 0.5}, {"q1": {"ndcg@10": 0.5}}, 1, (10,))
    >>> rag = RagEvalReport.from_values({"token_f1": [0.75]}, ["q1"])
    >>> report = PipelineEvalReport(retrieval=retrieval, rag=rag)
    >>> report.per_query["q1"]
    {'ndcg@10': 0.5, 'token_f1': 0.75}
    """

    retrieval: RetrievalEvalReport | None = attrs.field(converter=_retrieval_of)
    rag: RagEvalReport = attrs.field(converter=_rag_of)
    samples: tuple[Mapping[str, Any], ...] = attrs.field(
        default=(), converter=_samples, kw_only=True
    )
    skipped: Mapping[str, str] = attrs.field(factory=dict, converter=frozen_mapping, kw_only=True)
    #: How the report was made: the number of contexts, the generator, the input files. The
    #: two parts keep their own manifests. Not compared by ``==``.
    manifest: Mapping[str, Any] = attrs.field(
        factory=dict, converter=frozen_deep, kw_only=True, eq=False
    )
    #: ``{query_id: {key: value}}``: the retrieval values, then the RAG values, of each query.
    per_query: Mapping[str, Mapping[str, float | None]] = attrs.field(
        init=False, eq=False, repr=False
    )

    def __attrs_post_init__(self) -> None:
        ids = self.rag.sample_ids
        if self.samples and tuple(str(s.get("id")) for s in self.samples) != ids:
            raise ValueError("the samples' ids are not the RAG report's sample_ids, in order")
        retrieved: Mapping[str, Mapping[str, float]] = {}
        if self.retrieval is not None:
            retrieved = self.retrieval.per_query
            if set(retrieved) != set(ids):
                raise ValueError(
                    f"the retrieval report scores {len(retrieved)} queries and the RAG report "
                    f"{len(ids)} samples: a pipeline report pairs them query by query"
                )
            shared = set(self.retrieval.metrics) & set(self.rag.metrics)
            if shared:
                raise ValueError(
                    f"{', '.join(map(repr, sorted(shared)))} is both a retrieval and a RAG "
                    "metric key: per_query could not tell them apart"
                )
        names = list(self.rag.per_sample)
        per_query = {
            query_id: FrozenDict(
                {**retrieved.get(query_id, {}), **{n: self.rag.per_sample[n][i] for n in names}}
            )
            for i, query_id in enumerate(ids)
        }
        object.__setattr__(self, "per_query", FrozenDict(per_query))

    @property
    def n_queries(self) -> int:
        """How many queries were run, answered and scored."""
        return self.rag.n_samples

    @property
    def query_ids(self) -> tuple[str, ...]:
        """The scored queries, in the order of the input queries."""
        return self.rag.sample_ids

    @property
    def metrics(self) -> Mapping[str, float | None]:
        """Every mean: the retrieval keys (``"ndcg@10"``, ...), then the RAG metrics."""
        retrieval = {} if self.retrieval is None else self.retrieval.metrics
        return FrozenDict({**retrieval, **self.rag.metrics})

    @property
    def primary(self) -> float | None:
        """Mean NDCG@10 of the retrieval, or None without qrels or when it was not computed."""
        return None if self.retrieval is None else self.retrieval.primary

    def _keys(self) -> list[str]:
        retrieval = [] if self.retrieval is None else self.retrieval.ordered_keys()
        return [*retrieval, *(k for k in self.rag.metrics if k in self.rag.per_sample)]

    def to_dict(self) -> dict[str, Any]:
        """Plain dicts and lists, ready for ``json.dumps``: both reports' own dicts, the
        samples, what was skipped and the manifest.

        >>> rag = RagEvalReport.from_values({"token_f1": [0.75]}, ["q1"])
        >>> sorted(PipelineEvalReport(retrieval=None, rag=rag).to_dict())
        ['manifest', 'rag', 'retrieval', 'samples', 'skipped']
        """
        return {
            "retrieval": None if self.retrieval is None else self.retrieval.to_dict(),
            "rag": self.rag.to_dict(),
            "samples": plain(self.samples),
            "skipped": plain(self.skipped),
            "manifest": plain(self.manifest),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PipelineEvalReport:
        """The report of a :meth:`to_dict` form, or of its JSON.

        >>> rag = RagEvalReport.from_values({"token_f1": [0.75, None]}, ["q1", "q2"])
        >>> report = PipelineEvalReport(retrieval=None, rag=rag)
        >>> PipelineEvalReport.from_dict(report.to_dict()) == report
        True
        """
        what = "PipelineEvalReport"
        retrieval = field_of(data, "retrieval", what)
        return cls(
            retrieval=None if retrieval is None else mapping_of(retrieval, "retrieval"),
            rag=mapping_of(field_of(data, "rag", what), "rag"),
            samples=data.get("samples", ()),
            skipped=data.get("skipped", {}),
            manifest=data.get("manifest", {}),
        )

    def tables(self, *, details: bool = False) -> list[Table]:
        """The tables that show this report: every mean with its coverage (the retrieval
        keys, then the RAG metrics), then with ``details`` each query's values side by side.

        >>> rag = RagEvalReport.from_values({"token_f1": [0.75]}, ["q1"])
        >>> [t.title for t in PipelineEvalReport(retrieval=None, rag=rag).tables(details=True)]
        ['Pipeline evaluation: 1 queries, answers only (no qrels)', 'per query']
        """
        return self._tables(details, number)

    def _title(self) -> str:
        what = "answers only (no qrels)" if self.retrieval is None else "retrieval and answers"
        skipped = f" ({len(self.skipped)} skipped)" if self.skipped else ""
        return f"Pipeline evaluation: {self.n_queries} queries{skipped}, {what}"

    def _notes(self) -> list[str]:
        corpus = self.rag.notes()[:1] if self.rag.corpus_level else []
        if self.retrieval is None:
            skipped = [f"Skipped: {qid} ({why})." for qid, why in list(self.skipped.items())[:5]]
            return [*skipped, *corpus]
        return [
            *self.retrieval.coverage_notes(),
            *filter(None, [tie_note(self.retrieval.ties)]),
            *corpus,
        ]

    def _tables(self, details: bool, cell: Callable[[float | None], str]) -> list[Table]:
        rows: list[Sequence[str]] = []
        if self.retrieval is not None:
            scored = f"{self.retrieval.n_queries}/{self.n_queries}"
            rows += [
                [key, cell(self.retrieval.metrics[key]), scored]
                for key in self.retrieval.ordered_keys()
            ]
        rows += self.rag._tables(False, cell)[0].rows  # the RAG report's own summary rows
        summary = Table(
            ["metric", "mean", "coverage"], rows, title=self._title(), notes=self._notes()
        )
        if not details:
            return [summary]
        return [summary, per_query_table(self.per_query, self._keys(), cell)]

    def to_pandas(self, *, details: bool = False) -> Any:
        """Each mean and its coverage as a :class:`pandas.DataFrame` (a row per metric), or
        with ``details`` each query's values, a row per query. Needs pandas."""
        pd = pandas_module()
        keys = self._keys()
        if details:
            return pd.DataFrame(
                [[values.get(key) for key in keys] for values in self.per_query.values()],
                index=pd.Index(list(self.per_query), name="query_id"),
                columns=keys,
            )
        summary = self.csv_table()
        means = self.metrics
        return pd.DataFrame(
            {
                "mean": [means[row[0]] for row in summary.rows],
                "coverage": [int(row[2].partition("/")[0]) for row in summary.rows],
            },
            index=pd.Index([row[0] for row in summary.rows], name="metric"),
        )

    def __repr__(self) -> str:
        # A few lines whatever the size: str() (and the tables) hold the rest.
        means = dict(self.metrics)
        first: dict[str, float | None] = {
            key: means.pop(key) for key in ("ndcg@10", "token_f1") if key in means
        }
        shown = brief_metrics({**first, **means})
        skipped = f" ({len(self.skipped)} skipped)" if self.skipped else ""
        return f"<PipelineEvalReport: {self.n_queries} queries{skipped}, {shown}>"

    def __str__(self) -> str:
        return plain_text(self._tables(False, number)[0])  # the title, the means, the notes
