"""Registers the built-in retrieval metrics: ndcg, recall, precision, mrr, map and the rest of
trec_eval's, ir_measures' and BEIR's common measures, each with its names in their syntaxes."""

from __future__ import annotations

from typing import Any

from ..hookspecs import hookimpl
from ..interfaces import MetricParam, RetrievalMetric, Synonym
from ..metrics import batch, expected, retrieval


def _positive(name: str) -> Any:
    def check(value: float) -> None:
        if value <= 0:
            raise ValueError(f"parameter {name!r} must be > 0, got {value!r}")

    return check


def _probability(value: float) -> None:
    if not 0 < value < 1:
        raise ValueError(f"parameter 'p' must lie strictly between 0 and 1, got {value!r}")


REL = MetricParam(
    "rel",
    float,
    None,
    "the lowest grade that counts as relevant (trec_eval's -l); unset: any grade > 0",
    check=_positive("rel"),
)
JUDGED_ONLY = MetricParam(
    "judged_only",
    bool,
    False,
    "drop the docs without a judgement of 0 or more from the ranking first (trec_eval's -J)",
)
GAINS = MetricParam(
    "gains",
    dict,
    None,
    "grade -> gain, e.g. {1:1,2:3} (trec_eval's ndcg.1=1,2=3); unlisted grades keep their own",
)
DCG = MetricParam(
    "dcg",
    str,
    "log2",
    "'log2': gain / log2(rank + 1); 'exp-log2': (2 ** gain - 1) / log2(rank + 1) (Burges)",
    choices=("log2", "exp-log2"),
)
P = MetricParam(
    "p", float, 0.9, "the user's persistence, in (0, 1) (trec_eval's 0.9)", check=_probability
)
MAX_GRADE = MetricParam(
    "max_grade",
    float,
    4.0,
    "the grade that satisfies the user almost surely (gdeval's 4)",
    check=_positive("max_grade"),
)
GRADED = MetricParam(
    "graded",
    bool,
    False,
    "gain grade / the query's highest grade (if above 1), as trec_eval's rbp, not 0 or 1",
)
BINARY = (REL, JUDGED_ONLY)
NDCG_REL = MetricParam(
    "rel",
    float,
    None,
    "grades below it gain nothing, in the ranking and the ideal (ranx's -l); unset: every "
    "grade > 0 gains, as trec_eval's -l leaves nDCG alone",
    check=_positive("rel"),
)

TREC = "trec_eval"
IRM = "ir_measures"

_CITE_TREC = "trec_eval (NIST), usnistgov/trec_eval"


@hookimpl
def ef_evaluation_metrics() -> list[RetrievalMetric]:
    return [
        RetrievalMetric(
            name="ndcg",
            func=retrieval.ndcg_at_k,
            batch=batch.ndcg_batch,
            expected=expected.ndcg_expected,
            params=(GAINS, DCG, JUDGED_ONLY, NDCG_REL),
            synonyms=(
                Synonym(IRM, "nDCG"),
                Synonym(IRM, "NDCG"),
                Synonym(TREC, "ndcg_cut"),
                Synonym(TREC, "ndcg", cutoff=False),
            ),
            formula="sum(gain_i / log2(i + 1), i <= k) / the same for the ideal ranking of "
            "every judged doc",
            citation="Järvelin and Kekäläinen, ACM TOIS 20(4), 2002; exp-log2: Burges et al., "
            "ICML 2005",
        ),
        RetrievalMetric(
            name="recall",
            func=retrieval.recall_at_k,
            batch=batch.recall_batch,
            expected=expected.recall_expected,
            params=BINARY,
            synonyms=(
                Synonym(IRM, "R"),
                Synonym(IRM, "Recall"),
                Synonym(IRM, "SetR", cutoff=False),
                Synonym(TREC, "recall"),
                Synonym(TREC, "set_recall", cutoff=False),
            ),
            formula="|relevant in top k| / R",
            citation=_CITE_TREC,
        ),
        RetrievalMetric(
            name="precision",
            func=retrieval.precision_at_k,
            batch=batch.precision_batch,
            expected=expected.precision_expected,
            params=BINARY,
            synonyms=(
                Synonym(IRM, "P"),
                Synonym(IRM, "Precision"),
                Synonym(IRM, "SetP", cutoff=False),
                Synonym(TREC, "P"),
                Synonym(TREC, "set_P", cutoff=False),
            ),
            formula="|relevant in top k| / k (@all: / retrieved)",
            citation=_CITE_TREC,
        ),
        RetrievalMetric(
            name="mrr",
            func=retrieval.reciprocal_rank,
            batch=batch.reciprocal_rank_batch,
            expected=expected.reciprocal_rank_expected,
            params=BINARY,
            synonyms=(
                Synonym(IRM, "RR"),
                Synonym(IRM, "MRR"),
                Synonym(TREC, "recip_rank", cutoff=False),
            ),
            formula="1 / rank of the first relevant doc in the top k (0 if none)",
            citation="Voorhees, TREC-8 Question Answering Track Report, 1999",
        ),
        RetrievalMetric(
            name="map",
            func=retrieval.average_precision,
            batch=batch.average_precision_batch,
            expected=expected.average_precision_expected,
            params=BINARY,
            synonyms=(
                Synonym(IRM, "AP"),
                Synonym(IRM, "MAP"),
                Synonym(TREC, "map_cut"),
                Synonym(TREC, "map", cutoff=False),
            ),
            formula="sum(precision@i for each relevant doc at rank i <= k) / R",
            citation=_CITE_TREC,
        ),
        RetrievalMetric(
            name="rprec",
            func=retrieval.r_precision,
            batch=batch.r_precision_batch,
            expected=expected.r_precision_expected,
            params=BINARY,
            cutoff=False,
            aliases=("r_precision",),
            synonyms=(
                Synonym(IRM, "Rprec", cutoff=False),
                Synonym(IRM, "RPrec", cutoff=False),
                Synonym(TREC, "Rprec", cutoff=False),
            ),
            formula="|relevant in top R| / R",
            citation="Buckley and Voorhees, in TREC: Experiment and Evaluation in IR, 2005",
        ),
        RetrievalMetric(
            name="bpref",
            func=retrieval.bpref,
            batch=batch.bpref_batch,
            expected=expected.bpref_expected,
            params=BINARY,
            cutoff=False,
            synonyms=(
                Synonym(IRM, "Bpref", cutoff=False),
                Synonym(IRM, "BPref", cutoff=False),
                Synonym(TREC, "bpref", cutoff=False),
            ),
            formula="sum(1 - min(n_above, R) / min(N, R) for each relevant doc retrieved) / R; "
            "n_above: judged non-relevant docs above it, N: all judged non-relevant",
            citation="Buckley and Voorhees, SIGIR 2004",
        ),
        RetrievalMetric(
            name="infap",
            func=retrieval.inferred_average_precision,
            batch=batch.inferred_average_precision_batch,
            expected=expected.inferred_average_precision_expected,
            params=BINARY,
            cutoff=False,
            synonyms=(Synonym(IRM, "infAP", cutoff=False), Synonym(TREC, "infAP", cutoff=False)),
            formula="AP with the precision above each relevant doc estimated from the judged "
            "docs above it (negative grade: pooled, not judged)",
            citation="Yilmaz and Aslam, CIKM 2006",
        ),
        RetrievalMetric(
            name="success",
            func=retrieval.success_at_k,
            batch=batch.success_batch,
            expected=expected.success_expected,
            params=BINARY,
            aliases=("hit_rate",),
            synonyms=(Synonym(IRM, "Success"), Synonym(TREC, "success")),
            formula="1 if a relevant doc is in the top k, else 0",
            citation=_CITE_TREC,
        ),
        RetrievalMetric(
            name="f1",
            func=retrieval.f1_at_k,
            batch=batch.f1_batch,
            expected=expected.f1_expected,
            params=BINARY,
            synonyms=(Synonym(IRM, "SetF", cutoff=False), Synonym(TREC, "set_F", cutoff=False)),
            formula="2 * P * R / (P + R) with P = precision@k, R = recall@k",
            citation="van Rijsbergen, Information Retrieval, 1979",
        ),
        RetrievalMetric(
            name="r_cap",
            func=retrieval.capped_recall_at_k,
            batch=batch.capped_recall_batch,
            expected=expected.capped_recall_expected,
            params=BINARY,
            synonyms=(
                Synonym(IRM, "SetRelP", cutoff=False),
                Synonym(IRM, "SetP", cutoff=False, selects={"relative": True}),
                Synonym(TREC, "relative_P"),
                Synonym(TREC, "set_relative_P", cutoff=False),
            ),
            formula="|relevant in top k| / min(k, R) (@all: min(retrieved, R))",
            citation="Thakur et al., BEIR, NeurIPS Datasets and Benchmarks 2021",
        ),
        RetrievalMetric(
            name="judged",
            func=retrieval.judged_at_k,
            batch=batch.judged_batch,
            expected=expected.judged_expected,
            synonyms=(Synonym(IRM, "Judged"),),
            formula="|judged docs in top k| / |top k| (any grade, negative included)",
            citation="ir_measures' Judged (MacAvaney et al., ECIR 2022)",
        ),
        RetrievalMetric(
            name="hole",
            func=retrieval.hole_at_k,
            batch=batch.hole_batch,
            expected=expected.hole_expected,
            synonyms=(Synonym(TREC, "unj"),),
            formula="|unjudged (or negative) docs in top k| / k",
            citation="trec_eval 10's unj; BEIR's Hole@k (Thakur et al., 2021)",
        ),
        RetrievalMetric(
            name="num_ret",
            func=retrieval.num_ret,
            batch=batch.num_ret_batch,
            expected=expected.num_ret_expected,
            params=(JUDGED_ONLY,),
            cutoff=False,
            aggregate="sum",
            synonyms=(Synonym(IRM, "NumRet", cutoff=False), Synonym(TREC, "num_ret", cutoff=False)),
            formula="|top k|; summed over queries",
            citation=_CITE_TREC,
        ),
        RetrievalMetric(
            name="num_rel",
            func=retrieval.num_rel,
            batch=batch.num_rel_batch,
            expected=expected.num_rel_expected,
            params=(REL,),
            cutoff=False,
            aggregate="sum",
            synonyms=(Synonym(IRM, "NumRel", cutoff=False), Synonym(TREC, "num_rel", cutoff=False)),
            formula="R, the query's relevant docs; summed over queries",
            citation=_CITE_TREC,
        ),
        RetrievalMetric(
            name="num_rel_ret",
            func=retrieval.num_rel_ret,
            batch=batch.num_rel_ret_batch,
            expected=expected.num_rel_ret_expected,
            params=BINARY,
            cutoff=False,
            aggregate="sum",
            synonyms=(
                Synonym(IRM, "NumRelRet", cutoff=False),
                # ir_measures spells NumRelRet as NumRet(rel=1).
                Synonym(IRM, "NumRet", cutoff=False, requires=("rel",)),
                Synonym(TREC, "num_rel_ret", cutoff=False),
            ),
            formula="|relevant in top k|; summed over queries",
            citation=_CITE_TREC,
        ),
        RetrievalMetric(
            name="rbp",
            func=retrieval.rbp,
            batch=batch.rbp_batch,
            expected=expected.rbp_expected,
            params=(P, REL, GRADED, JUDGED_ONLY),
            cutoff=False,
            synonyms=(
                Synonym(IRM, "RBP", params={"p": 0.8}),  # ir_measures' default persistence
                Synonym(TREC, "rbp", cutoff=False, params={"graded": True}),
            ),
            formula="(1 - p) * sum(gain_i * p ** (i - 1), i <= k); gain 1 if relevant "
            "(graded: grade / the query's highest grade)",
            citation="Moffat and Zobel, ACM TOIS 27(1), 2008",
        ),
        RetrievalMetric(
            name="rbp_resid",
            func=retrieval.rbp_residual,
            batch=batch.rbp_residual_batch,
            expected=expected.rbp_residual_expected,
            params=(P,),
            cutoff=False,
            aliases=("rbp_residual",),
            synonyms=(Synonym(TREC, "rbp_resid", cutoff=False),),
            formula="(1 - p) * sum(p ** (i - 1) for each unjudged doc at rank i <= k) + "
            "p ** n - p ** k (n docs retrieved; p ** n without a cutoff)",
            citation="Moffat and Zobel, ACM TOIS 27(1), 2008",
        ),
        RetrievalMetric(
            name="err",
            func=retrieval.err_at_k,
            batch=batch.err_batch,
            expected=expected.err_expected,
            params=(MAX_GRADE, JUDGED_ONLY),
            synonyms=(Synonym(IRM, "ERR"),),
            formula="sum(R_i / i * prod(1 - R_j, j < i), i <= k), "
            "R = (2 ** grade - 1) / 2 ** max_grade",
            citation="Chapelle et al., CIKM 2009; as gdeval computes it",
        ),
    ]
