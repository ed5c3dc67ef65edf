"""Every measure pytrec-eval-terrier has that we implement, with trec_eval's -l and -J, per query.

pytrec_eval wraps trec_eval 9's C code. ``relevance_level`` (``-l``) and
``judged_docs_only_flag`` (``-J``) become our ``rel=`` and ``judged_only=`` parameters on
every measure that takes them (not nDCG's ``rel``: trec_eval never thresholds its gains), and
``averaging="run"`` scores the queries pytrec_eval scores: those of the run with a judgement,
a judged topic with no relevant doc included. Random runs with heavy score ties (ties are
broken by docno descending on both sides) and grades from -1 to 3.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ef.evaluation import evaluate_run
from ef.evaluation._engine.measures import Measure, parse_measure

from ..profiles_hypothesis import examples
from ..strategies import doc_ids, judgements
from .test_pytrec_eval_differential import TIE_SCORES, TOLERANCE, int_qrels
from .test_trec_eval_measures import measure_string

pytrec_eval = pytest.importorskip("pytrec_eval", reason="pytrec-eval-terrier is a test dependency")


def pytrec_values(
    qrels: dict[str, dict[str, int]],
    run: dict[str, dict[str, float]],
    measures: set[str],
    **switches: object,
) -> dict[str, dict[str, float]]:
    evaluator = pytrec_eval.RelevanceEvaluator(int_qrels(qrels), measures, **switches)
    values: dict[str, dict[str, float]] = evaluator.evaluate(run)
    return values


CUTOFFS = (1, 3, 5, 10)
#: What we ask pytrec_eval for; it prints ``P_1``, ``ndcg_cut_3``, ``set_F``, ...
ASKED = {
    *(f"{family}.{','.join(map(str, CUTOFFS))}" for family in (
        "P", "recall", "map_cut", "ndcg_cut", "relative_P", "success",
    )),
    "map", "recip_rank", "ndcg", "Rprec", "bpref", "infAP", "num_ret", "num_rel",
    "num_rel_ret", "set_P", "set_recall", "set_F", "set_relative_P",
}  # fmt: skip
PRINTED = [
    *(f"{family}_{k}" for family in ("P", "recall", "map_cut", "ndcg_cut", "relative_P", "success") for k in CUTOFFS),
    "map", "recip_rank", "ndcg", "Rprec", "bpref", "infAP", "num_ret", "num_rel",
    "num_rel_ret", "set_P", "set_recall", "set_F", "set_relative_P",
]  # fmt: skip


def switched(printed: str, rel: int, judged_only: bool) -> str:
    """Our key for a trec_eval measure under ``-l rel`` and ``-J``."""
    spec = measure_string(printed)
    assert spec is not None, printed
    (measure,) = parse_measure(spec)
    params = dict(measure.params)
    if "rel" in measure.kwargs and measure.metric.name != "ndcg":
        params["rel"] = float(rel)  # trec_eval's -l leaves nDCG alone (its rel is ranx's)
    if judged_only and "judged_only" in measure.kwargs:
        params["judged_only"] = True
    order = [p.name for p in measure.metric.params]
    ordered = sorted(params.items(), key=lambda kv: order.index(kv[0]))
    return Measure(measure.metric, measure.k, ordered).key


def test_the_switches_reach_the_keys() -> None:
    assert switched("P_5", 2, True) == "precision(rel=2,judged_only=True)@5"
    assert switched("ndcg", 2, True) == "ndcg(judged_only=True)@all"  # no rel on nDCG
    assert switched("num_rel", 2, True) == "num_rel(rel=2)"


query_ids = st.sampled_from(["q1", "q2", "q3", "q4"])
scored = st.dictionaries(doc_ids, st.sampled_from(TIE_SCORES), max_size=12)
runs = st.dictionaries(query_ids, scored, max_size=4)
#: trec_eval sizes a query's table of grades by its highest grade + 1: a query judged only
#: with negative grades gets a table of size 0, and pytrec_eval then returns zeros for every
#: measure (num_ret too) or crashes. We score such a query like any other; it is left out.
trec_eval_safe = judgements.filter(lambda judged: not judged or max(judged.values()) >= 0)
all_qrels = st.dictionaries(query_ids, trec_eval_safe, max_size=4)


@pytest.mark.filterwarnings("ignore::ef.evaluation.InputWarning")  # random partial runs
@settings(max_examples=examples(300), deadline=None)
@given(
    run=runs,
    qrels=all_qrels,
    rel=st.sampled_from([1, 2, 3]),
    judged_only=st.booleans(),
)
def test_matches_pytrec_eval_with_relevance_level_and_judged_only(
    run: dict[str, dict[str, float]], qrels: dict[str, dict[str, int]], rel: int, judged_only: bool
) -> None:
    theirs = pytrec_values(
        qrels, run, ASKED, relevance_level=rel, judged_docs_only_flag=judged_only
    )
    keys = {printed: switched(printed, rel, judged_only) for printed in PRINTED}
    scorable = {qid for qid in run if qrels.get(qid)}
    if not scorable:
        assert theirs == {}
        return
    # Random runs: one that meets no judged doc is scored, as pytrec_eval scores it.
    report = evaluate_run(
        run, qrels, metrics=list(keys.values()), averaging="run", check_doc_ids=False
    )
    assert set(report.per_query) == set(theirs) == scorable
    bad = [
        f"{qid} {printed} ({key}): ours {report.per_query[qid][key]!r}, pytrec_eval {value!r}"
        for qid, values in theirs.items()
        for printed, key in keys.items()
        if abs(report.per_query[qid][key] - (value := values[printed])) > TOLERANCE
    ]
    assert not bad, "\n".join(bad)
