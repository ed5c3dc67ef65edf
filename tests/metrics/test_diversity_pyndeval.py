"""The diversity measures equal pyndeval's (ndeval.c, the TREC Web track's tool, which
ir_measures' pyndeval provider calls), to 1e-9, on hypothesis-made subtopic qrels and runs.

pyndeval ranks tied scores by doc id ascending (ndeval's ``-traditional`` and trec_eval:
descending), so it is given our ranking as distinct scores; the tie order itself is pinned in
test_diversity.py. Its ERR-IA@1 and alpha-DCG@1 are not normalised (ndeval's loop starts at
rank 2): there ours times the number of intents is theirs. Its nNRBP of a query with no
relevant judgement is 0/0 = NaN; ours is 0.0.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ef.evaluation import InputWarning, SubtopicQrels, evaluate_run
from ef.evaluation._engine._diversity import parse_diversity_measures, score_diversity
from ef.evaluation._evaluate._diversity import evaluate_diversity
from ef.evaluation._runs.order import scored_order
from ef.evaluation.metrics.retrieval.diversity import intent_judgements
from ef.evaluation.types import Averaging

from ..profiles_hypothesis import examples

pytestmark = pytest.mark.peers  # pyndeval, a peer implementation (ndeval.c)

pyndeval = pytest.importorskip("pyndeval", reason="pyndeval is not installed (test-peers extra)")

CUTOFFS = range(1, 21)  # ndeval's deepest is 20
THEIRS = {  # our name -> ndeval's
    "alpha_ndcg": "alpha-nDCG",
    "alpha_dcg": "alpha-DCG",
    "err_ia": "ERR-IA",
    "nerr_ia": "nERR-IA",
    "p_ia": "P-IA",
    "subtopic_recall": "strec",
}
WHOLE = {"nrbp": "NRBP", "nnrbp": "nNRBP", "ap_ia": "MAP-IA"}
UNNORMALISED_AT_1 = {"alpha_dcg", "err_ia"}

DOCS = [f"d{i}" for i in range(14)]
records = st.lists(
    st.tuples(
        st.sampled_from(["q1", "q2", "q3"]),
        st.sampled_from(["1", "2", "3", "4", "10"]),
        st.sampled_from(DOCS),
        st.integers(-1, 3),
    ),
    min_size=1,
    max_size=40,
    unique_by=lambda r: r[:3],
)
runs = st.dictionaries(
    st.sampled_from(["q1", "q2", "q3", "q4"]),
    st.dictionaries(
        st.sampled_from([*DOCS, *(f"u{i}" for i in range(20))]),
        st.integers(0, 6).map(float),  # few values: many ties
        max_size=30,
    ),
    min_size=1,
)
DYADIC = [0.0, 0.25, 0.5, 0.75, 1.0]  # gains are then exact sums, as in C


def _theirs(
    records: list[tuple[str, str, str, int]],
    rankings: dict[str, list[str]],
    *,
    alpha: float,
    beta: float,
    rel: int,
) -> dict[str, dict[str, float]]:
    measures = [f"{m}@{k}" for m in THEIRS.values() for k in CUTOFFS] + list(WHOLE.values())
    # pyndeval numbers subtopics as it meets them; ndeval.c by their number: give them in order.
    ordered = sorted(records, key=lambda r: int(r[1]))
    qrels = [pyndeval.SubtopicQrel(q, s, d, g) for q, s, d, g in ordered]
    run = [
        pyndeval.ScoredDoc(q, d, float(-rank))
        for q, ranked in rankings.items()
        for rank, d in enumerate(ranked)
    ]
    evaluator = pyndeval.RelevanceEvaluator(
        qrels, measures, relevance_level=rel, alpha=alpha, beta=beta
    )
    return evaluator.evaluate(run)  # type: ignore[no-any-return]


def _ours_key(name: str, k: int | None, alpha: float, beta: float, rel: int) -> str:
    params = []
    if name in ("alpha_ndcg", "alpha_dcg", "err_ia", "nerr_ia", "nrbp", "nnrbp") and alpha != 0.5:
        params.append(f"alpha={alpha:g}")
    if name in ("nrbp", "nnrbp") and beta != 0.5:
        params.append(f"beta={beta:g}")
    if rel != 1:
        params.append(f"rel={rel}")
    text = f"({','.join(params)})" if params else ""
    return f"{name}{text}" + (f"@{k}" if k is not None else "")


def _specs(alpha: float, beta: float, rel: int) -> list[str]:
    keys = [_ours_key(n, k, alpha, beta, rel) for n in THEIRS for k in CUTOFFS]
    return keys + [_ours_key(n, None, alpha, beta, rel) for n in WHOLE]


def _compare(
    ours: dict[str, dict[str, float]],
    theirs: dict[str, dict[str, float]],
    judgements: Any,
    *,
    alpha: float,
    beta: float,
    rel: int,
) -> None:
    assert set(ours) == set(theirs)
    for query_id, values in theirs.items():
        intents = intent_judgements(judgements[query_id], rel).n_intents
        for name, spelling in THEIRS.items():
            for k in CUTOFFS:
                mine = ours[query_id][_ours_key(name, k, alpha, beta, rel)]
                their = values[f"{spelling}@{k}"]
                if k == 1 and name in UNNORMALISED_AT_1:
                    mine *= intents
                assert mine == pytest.approx(their, abs=1e-9), (query_id, name, k)
        for name, spelling in WHOLE.items():
            mine = ours[query_id][_ours_key(name, None, alpha, beta, rel)]
            their = values[spelling]
            if math.isnan(their):
                assert (name, intents) == ("nnrbp", 0)
                assert mine == 0.0
                continue
            assert mine == pytest.approx(their, abs=1e-9), (query_id, name)


#: Where the greedy ideal's tie break decides alpha-nDCG@2: a, b and e each cover two
#: subtopics; ndeval takes e (the larger id) first, and then b gains 2, not 1.5.
TIED_IDEAL = [
    ("q1", "1", "b", 1),
    ("q1", "2", "a", 1),
    ("q1", "2", "e", 1),
    ("q1", "3", "e", 1),
    ("q1", "4", "a", 1),
    ("q1", "4", "b", 1),
]


@settings(max_examples=examples(400), deadline=None)
@example(TIED_IDEAL, {"q1": {"a": 2.0, "b": 1.0}}, 0.5, 0.5, 1)
@example(TIED_IDEAL, {"q1": {"e": 2.0, "b": 1.0, "x": 0.5}}, 0.5, 0.8, 1)
@given(
    records,
    runs,
    st.sampled_from(DYADIC),
    st.sampled_from([0.5, 0.25, 0.8, 1.0]),
    st.sampled_from([1, 1, 2]),
)
def test_every_measure_equals_pyndeval(
    records: list[tuple[str, str, str, int]],
    run: dict[str, dict[str, float]],
    alpha: float,
    beta: float,
    rel: int,
) -> None:
    if alpha == 0.0 and beta == 1.0:
        return  # NRBP's normaliser is 0: refused (test_diversity.py)
    judgements: dict[str, dict[str, dict[str, int]]] = {}
    for q, s, d, g in records:
        judgements.setdefault(q, {}).setdefault(s, {})[d] = g
    rankings = {q: scored_order(docs) for q, docs in run.items() if q in judgements and docs}
    specs = parse_diversity_measures(_specs(alpha, beta, rel), ())
    ours = score_diversity(rankings, judgements, specs)
    theirs = _theirs(records, rankings, alpha=alpha, beta=beta, rel=rel)
    _compare(ours, theirs, judgements, alpha=alpha, beta=beta, rel=rel)


@settings(max_examples=examples(200), deadline=None)
@given(records, runs, st.sampled_from(["intersection", "run"]))
def test_the_mean_is_ndevals_amean(
    records: list[tuple[str, str, str, int]], run: dict[str, dict[str, float]], averaging: Averaging
) -> None:
    """ndeval's amean row without -c, through evaluate_run: the mean over the judged queries
    the run answers, a query with no relevant judgement counting as 0 (for the diversity
    measures, averaging "intersection" and "run" are both that)."""
    judgements: dict[str, dict[str, dict[str, int]]] = {}
    for q, s, d, g in records:
        judgements.setdefault(q, {}).setdefault(s, {})[d] = g
    run = {q: docs for q, docs in run.items() if docs}  # a file has no line for an empty one
    rankings = {q: scored_order(docs) for q, docs in run.items() if q in judgements}
    if not rankings:
        return
    measures = ["alpha_nDCG@20", "ERR_IA@10", "NRBP", "AP_IA", "P_IA@5", "StRecall@20"]
    qrels = SubtopicQrels.from_records(records)
    relevant = [
        q for q in rankings if any(g > 0 for d in judgements[q].values() for g in d.values())
    ]
    judged_relevant = [
        q
        for q, intents in judgements.items()
        if any(g > 0 for d in intents.values() for g in d.values())
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)  # few queries answered: said, and scored
        if averaging == "intersection" and judged_relevant and not relevant:
            # evaluate_run's check: no answered query has a relevant doc, so all would be 0
            with pytest.raises(ValueError, match="no query can be scored"):
                evaluate_run(run, qrels, metrics=measures, averaging=averaging)
            return
        report = evaluate_run(
            run, qrels, metrics=measures, averaging=averaging, check_doc_ids=False
        )
    theirs = _theirs(records, rankings, alpha=0.5, beta=0.5, rel=1)
    pairs = {
        "alpha_ndcg@20": "alpha-nDCG@20",
        "err_ia@10": "ERR-IA@10",
        "nrbp": "NRBP",
        "ap_ia": "MAP-IA",
        "p_ia@5": "P-IA@5",
        "subtopic_recall@20": "strec@20",
    }
    assert set(report.per_query) == set(theirs)
    for key, spelling in pairs.items():
        amean = sum(values[spelling] for values in theirs.values()) / len(theirs)
        assert report.metrics[key] == pytest.approx(amean, abs=1e-9), key
        for query_id, values in theirs.items():
            assert report.per_query[query_id][key] == pytest.approx(values[spelling], abs=1e-9)
    # evaluate_diversity is the same path: the same report.
    if relevant:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", InputWarning)
            try:
                same = evaluate_diversity(run, qrels, metrics=measures, averaging="intersection")
            except ValueError:  # its doc-id check, which evaluate_run was told to skip
                return
        assert same.per_query == report.per_query
