"""evaluate_run against trec_eval 9's C code through pytrec-eval-terrier, per query, to 1e-9.

pytrec_eval scores the topics in both qrels and run (trec_eval 9 without ``-c``), so we use
``averaging="intersection"``. It also scores a judged topic with no positive grade (every
measure 0), which we skip by design (DESIGN §4): the comparison is over the topics we score,
and the topic sets are checked explicitly. trec_eval ranks by score as C ``float`` with ties
broken by docno descending; the runs here are full of such ties.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ef.evaluation import evaluate_run

from ..profiles_hypothesis import examples
from ..strategies import doc_ids, judgements
from ._trec import TREC_CUTOFFS, cached_report, load_qrels, load_run

pytrec_eval = pytest.importorskip("pytrec_eval", reason="pytrec-eval-terrier is a test dependency")

TOLERANCE = 1e-9

#: trec_eval's uncut measures as our keys (runs here rank <= 1000 docs per topic).
UNCUT = {"recip_rank": "mrr@1000", "map": "map@1000"}
#: trec_eval's parameterised measure families and ours.
FAMILIES = {"ndcg_cut": "ndcg", "P": "precision", "recall": "recall", "map_cut": "map"}


def names_at(cutoffs: tuple[int, ...]) -> dict[str, str]:
    """``{pytrec_eval result name: our key}`` for every family at ``cutoffs``, and uncut."""
    return {
        f"{trec}_{k}": f"{ours}@{k}" for trec, ours in FAMILIES.items() for k in cutoffs
    } | UNCUT


def measures_at(cutoffs: tuple[int, ...]) -> set[str]:
    """The measures to ask pytrec_eval for, e.g. ``"P.1,3"``, matching ``names_at``."""
    ks = ",".join(map(str, cutoffs))
    return {f"{family}.{ks}" for family in FAMILIES} | set(UNCUT)


def int_qrels(qrels: Mapping[str, Mapping[str, float]]) -> dict[str, dict[str, int]]:
    """pytrec_eval wants int grades; ours are floats that must be whole."""
    out: dict[str, dict[str, int]] = {}
    for qid, judged in qrels.items():
        assert all(float(grade).is_integer() for grade in judged.values()), qid
        out[qid] = {doc: int(grade) for doc, grade in judged.items()}
    return out


def with_positive(qrels: Mapping[str, Mapping[str, float]]) -> set[str]:
    return {qid for qid, judged in qrels.items() if any(grade > 0 for grade in judged.values())}


def pytrec_values(
    qrels: Mapping[str, Mapping[str, float]],
    run: Mapping[str, Mapping[str, float]],
    measures: set[str],
) -> dict[str, dict[str, float]]:
    evaluator = pytrec_eval.RelevanceEvaluator(int_qrels(qrels), measures)
    values: dict[str, dict[str, float]] = evaluator.evaluate(
        {qid: {doc: float(score) for doc, score in docs.items()} for qid, docs in run.items()}
    )
    return values


def differences(
    ours: Mapping[str, Mapping[str, float]],
    theirs: Mapping[str, Mapping[str, float]],
    names: Mapping[str, str],
) -> list[str]:
    """``names`` maps a pytrec_eval measure to our key; one line per value apart > 1e-9."""
    bad = []
    for qid, values in ours.items():
        for measure, key in names.items():
            if abs(values[key] - theirs[qid][measure]) > TOLERANCE:
                bad.append(
                    f"{qid} {measure}: ours {values[key]!r}, pytrec_eval {theirs[qid][measure]!r}"
                )
    return bad


# --- real runs ------------------------------------------------------------------------------

SCIFACT_RUNS = ("k1_1.2-b_0.75", "k1_0.9-b_0.4")
SCIFACT_QRELS = ("datasets", "beir-anserini", "qrels.beir-v1.0.0-scifact.test.txt")
SCIFACT_NAMES = {
    "ndcg_cut_10": "ndcg@10",
    "P_10": "precision@10",
    "recall_100": "recall@100",
    **UNCUT,
}


@pytest.mark.parametrize("run_name", SCIFACT_RUNS)
def test_scifact_per_query(run_name: str) -> None:
    run_parts = ("datasets", "scifact-runs", f"run.scifact.test.bm25s-lucene-{run_name}.txt.gz")
    run, qrels = load_run(*run_parts), load_qrels(*SCIFACT_QRELS)
    # The same report the golden-file tests use (same cutoffs, cached): no second evaluation.
    report = cached_report(run_parts, SCIFACT_QRELS, "qrels", TREC_CUTOFFS)
    theirs = pytrec_values(qrels, run, {"ndcg_cut.10", "P.10", "recall.100", "recip_rank", "map"})

    # Every judged SciFact topic has a relevant doc and is in the run: the "qrels" and
    # "intersection" averagings coincide, and pytrec_eval scores the same 300 topics.
    assert report.missing == ()
    assert set(report.per_query) == set(theirs) == set(qrels)
    assert report.n_queries == 300
    # Most topics have tied scores (284 and 283 of 300), but in these two runs no tie mixes a
    # relevant with a non-relevant doc, so the tie-break cannot move a value here: the
    # random runs below and results.test (in test_small_runs_per_query) cover it.
    tied = sum(len(set(docs.values())) < len(docs) for docs in run.values())
    assert tied > 250
    bad = differences(report.per_query, theirs, SCIFACT_NAMES)
    assert not bad, f"{len(bad)} differ:\n" + "\n".join(bad[:20])


# Small real inputs with topic-set quirks: CACM's run has 12 unjudged topics; the MS MARCO
# v2.1 sample has '#' in docnos, 270 unjudged run topics and one judged topic with no
# relevant doc (which pytrec_eval scores and we skip).
SMALL = {
    "trec_eval-results.test": (
        ("validation", "trec_eval", "qrels.test"),
        ("validation", "trec_eval", "results.test"),
    ),
    "trec_eval-results.comment.test": (
        ("validation", "trec_eval", "qrels.comment.test"),
        ("validation", "trec_eval", "results.comment.test"),
    ),
    "cacm": (("datasets", "cacm", "qrels.cacm.txt"), ("datasets", "cacm", "run.cacm-bm25.txt")),
}


@pytest.mark.parametrize("name", SMALL)
def test_small_runs_per_query(name: str) -> None:
    qrels_parts, run_parts = SMALL[name]
    qrels, run = load_qrels(*qrels_parts), load_run(*run_parts)
    report = evaluate_run(
        run,
        qrels,
        k_values=TREC_CUTOFFS,
        metrics=("ndcg", "precision", "recall", "map", "mrr@1000"),
        averaging="intersection",
    )
    theirs = pytrec_values(qrels, run, measures_at(TREC_CUTOFFS))

    assert set(theirs) == set(run) & set(qrels)
    assert set(report.per_query) == set(theirs) & with_positive(qrels)
    for qid in set(theirs) - set(report.per_query):
        assert report.skipped[qid] == "no positive judgement"
        assert set(theirs[qid].values()) == {0.0}  # what trec_eval counts in its mean
    assert set(report.extra) == set(run) - set(qrels)
    bad = differences(report.per_query, theirs, names_at(TREC_CUTOFFS))
    assert not bad, f"{len(bad)} differ:\n" + "\n".join(bad[:20])


# --- random runs with heavy ties ------------------------------------------------------------

#: Few distinct scores, so most docs tie. 1.0 and 1.0 + 1e-9 (also 0.25 and 0.25 + 1e-12) are
#: equal as float32 but not as float64: trec_eval (and so pytrec_eval) ties them and orders
#: by docno. 1.0 + 2**-20 is a distinct float32 just above 1.0.
TIE_SCORES = (-1.0, 0.0, 0.25, 0.25 + 1e-12, 1.0, 1.0 + 1e-9, 1.0 + 2**-20, 3.0)
CUTOFFS = (1, 3, 5, 10)
PROPERTY_NAMES = names_at(CUTOFFS)
PROPERTY_METRICS = tuple(PROPERTY_NAMES.values())

query_ids = st.sampled_from(["q1", "q2", "q3", "q4"])
scored = st.dictionaries(doc_ids, st.sampled_from(TIE_SCORES), max_size=12)
runs = st.dictionaries(query_ids, scored, max_size=4)
all_qrels = st.dictionaries(query_ids, judgements, max_size=4)


@pytest.mark.filterwarnings("ignore::ef.evaluation.InputWarning")  # random partial runs
@settings(max_examples=examples(300), deadline=None)
@given(run=runs, qrels=all_qrels)
def test_tied_runs_match_pytrec_eval(
    run: dict[str, dict[str, float]], qrels: dict[str, dict[str, int]]
) -> None:
    theirs = pytrec_values(qrels, run, measures_at(CUTOFFS))
    scorable = set(run) & with_positive(qrels)
    if not scorable:
        with pytest.raises(ValueError, match="no query can be scored"):
            evaluate_run(run, qrels, metrics=PROPERTY_METRICS, averaging="intersection")
        return
    # Random runs: one that meets no judged doc is scored, as pytrec_eval scores it.
    report = evaluate_run(
        run, qrels, metrics=PROPERTY_METRICS, averaging="intersection", check_doc_ids=False
    )
    # pytrec_eval drops a topic with empty qrels; it scores (as zeros) one with no positive.
    assert set(theirs) == set(run) & {qid for qid, judged in qrels.items() if judged}
    assert set(report.per_query) == scorable
    assert report.n_queries == len(scorable)
    assert set(report.missing) == with_positive(qrels) - set(run)
    assert set(report.extra) == set(run) - set(qrels)
    bad = differences(report.per_query, theirs, PROPERTY_NAMES)
    assert not bad, "\n".join(bad)

    # averaging="qrels" only adds the missing topics, at 0, to the same per-query values.
    as_c = evaluate_run(run, qrels, metrics=PROPERTY_METRICS, check_doc_ids=False)
    assert set(as_c.per_query) == with_positive(qrels)
    for qid, values in as_c.per_query.items():
        if qid in scorable:
            assert values == report.per_query[qid]
        else:
            assert set(values.values()) == {0.0}


def test_float32_ties_reach_pytrec_eval() -> None:
    # Guard for the property above: the float32 tie is real in pytrec_eval. 'b' > 'a', so
    # with 1.0 and 1.0 + 1e-9 tied, b ranks first and the relevant 'a' is at rank 2.
    values = pytrec_values({"q": {"a": 1}}, {"q": {"a": 1.0 + 1e-9, "b": 1.0}}, {"recip_rank"})
    assert values["q"]["recip_rank"] == 0.5
    report = evaluate_run({"q": {"a": 1.0 + 1e-9, "b": 1.0}}, {"q": {"a": 1}}, metrics=("mrr@10",))
    assert report.per_query["q"]["mrr@10"] == 0.5
