"""Tie policies (issue 8, item 4): every metric sees the same order of tied docs.

The deterministic policies are checked against an independent oracle: the same run as ranked
lists, sorted here by the rule the policy names (ranked lists have no ties). ``expected`` is
checked against brute force: the mean over every order of every tie group. ir_measures' own
providers check ``docno_asc`` (its msmarco ``RR@k``) and ``trec_eval`` (its pytrec ``RR``).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ef.evaluation import Registry, RetrievalMetric
from ef.evaluation import evaluate_run as checked_evaluate_run
from ef.evaluation._engine.ties import MAX_ORDERS, TIE_POLICIES
from ef.evaluation._runs.table import RunTable
from ef.evaluation.testing import registry_with

from .profiles_hypothesis import examples

#: The runs here are drawn at random: one whose ranking meets no judged doc is no misspelt
#: doc id, so the doc-id check (tests/test_doc_id_mistakes.py) is off.
evaluate_run = functools.partial(checked_evaluate_run, check_doc_ids=False)

ALL = (
    "ndcg",
    "recall",
    "precision",
    "mrr",
    "map",
    "map@all",
    "mrr@all",
    "rprec",
    "bpref",
    "infap",
    "success",
    "f1",
    "r_cap",
    "judged",
    "hole",
    "num_rel_ret",
    "rbp",
    "rbp_resid",
    "err@3",
    "ndcg(dcg='exp-log2')@5",
    "dcg",
    "dcg(dcg='exp-log2',rel=2)@3",
    "P(rel=2)@2",
    "AP(judged_only=True)",
)
KS = (1, 2, 3, 5)

Run = dict[str, dict[str, float]]

doc_ids = st.sampled_from([f"d{i}" for i in range(9)])
# A few scores, two of them equal as float32 only (trec_eval compares C floats).
scores = st.sampled_from([0.5, 1.0, 1.0 + 1e-9, 2.0])


@st.composite
def tied_runs(draw: st.DrawFn) -> tuple[Run, dict[str, dict[str, int]]]:
    run: Run = {}
    qrels: dict[str, dict[str, int]] = {}
    for q in ("q1", "q2", "q3"):
        docs = draw(st.lists(doc_ids, unique=True, min_size=1, max_size=7))
        run[q] = {d: draw(scores) for d in docs}
        judged = draw(st.dictionaries(doc_ids, st.integers(-1, 3), min_size=1, max_size=6))
        judged[draw(doc_ids)] = draw(st.integers(1, 3))  # every query has a relevant doc
        qrels[q] = judged
    return run, qrels


def _f32(x: float) -> float:
    return float(np.float32(x))


def oracle(ranked: Mapping[str, float], policy: str) -> list[str]:
    """The run's order under ``policy``, written out from its definition."""
    docs = list(ranked)
    if policy == "trec_eval":
        return sorted(docs, key=lambda d: (_f32(ranked[d]), d), reverse=True)
    if policy == "docno_asc":
        return sorted(docs, key=lambda d: (-_f32(ranked[d]), d))
    assert policy == "input_order"
    return sorted(docs, key=lambda d: -_f32(ranked[d]))  # stable: the mapping's order


def _as_lists(run: Run, policy: str) -> dict[str, list[str]]:
    return {q: oracle(ranked, policy) for q, ranked in run.items()}


def _close(a: Mapping[str, Mapping[str, float]], b: Mapping[str, Mapping[str, float]]) -> None:
    assert a.keys() == b.keys()
    for q in a:
        assert a[q].keys() == b[q].keys()
        for key in a[q]:
            assert math.isclose(a[q][key], b[q][key], rel_tol=1e-12, abs_tol=1e-12), (q, key)


def _write_run(path: Path, run: Run) -> Path:
    lines = [
        f"{q} Q0 {d} {i} {s!r} tag"
        for q, ranked in run.items()
        for i, (d, s) in enumerate(ranked.items(), start=1)
    ]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_the_policies_are_declared() -> None:
    assert list(TIE_POLICIES) == ["trec_eval", "docno_asc", "input_order", "expected"]
    with pytest.raises(ValueError, match=r"tie_policy must be one of .*got 'random'"):
        evaluate_run({"q": {"d": 1.0}}, {"q": {"d": 1}}, tie_policy="random")  # type: ignore[arg-type]


@pytest.mark.parametrize("policy", ["trec_eval", "docno_asc", "input_order"])
@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=tied_runs())
def test_every_metric_sees_the_order_the_policy_names(
    policy: str, data: tuple[Run, dict[str, dict[str, int]]]
) -> None:
    run, qrels = data
    got = evaluate_run(run, qrels, metrics=ALL, k_values=KS, tie_policy=policy)  # type: ignore[arg-type]
    want = evaluate_run(_as_lists(run, policy), qrels, metrics=ALL, k_values=KS)
    _close(got.per_query, want.per_query)
    assert got.manifest["tie_policy"] == got.ties.policy == policy


@pytest.mark.parametrize("policy", ["trec_eval", "docno_asc", "input_order"])
@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=tied_runs())
def test_a_run_file_ranks_as_its_mapping(
    tmp_path_factory: pytest.TempPathFactory,
    policy: str,
    data: tuple[Run, dict[str, dict[str, int]]],
) -> None:
    # The file lists each query's docs in the mapping's order: input_order is file order.
    run, qrels = data
    path = _write_run(tmp_path_factory.mktemp("run") / "run.txt", run)
    table = RunTable.read(path)
    for q, ranked in run.items():
        assert table.ranking(q, policy) == oracle(ranked, policy)
    got = evaluate_run(path, qrels, metrics=ALL, k_values=KS, tie_policy=policy)  # type: ignore[arg-type]
    want = evaluate_run(_as_lists(run, policy), qrels, metrics=ALL, k_values=KS)
    _close(got.per_query, want.per_query)
    # The file's tie groups are the mapping's: the same expected values and diagnostic.
    from_file = evaluate_run(path, qrels, metrics=ALL, k_values=KS, tie_policy="expected")
    from_dict = evaluate_run(run, qrels, metrics=ALL, k_values=KS, tie_policy="expected")
    _close(from_file.per_query, from_dict.per_query)
    assert from_file.ties == from_dict.ties


def _orders(run: Run) -> list[dict[str, list[str]]]:
    """Every run that orders each query's tie groups one way (score descending)."""
    per_query: list[list[list[str]]] = []
    for ranked in run.values():
        groups = [
            list(group)
            for _, group in itertools.groupby(
                oracle(ranked, "trec_eval"), key=lambda d: _f32(ranked[d])
            )
        ]
        per_query.append(
            [
                list(itertools.chain.from_iterable(choice))
                for choice in itertools.product(*(itertools.permutations(g) for g in groups))
            ]
        )
    return [dict(zip(run, choice, strict=True)) for choice in itertools.product(*per_query)]


@st.composite
def small_tied_runs(draw: st.DrawFn) -> tuple[Run, dict[str, dict[str, int]]]:
    # Few enough orders to enumerate: at most 5 docs per query, two queries.
    run: Run = {}
    qrels: dict[str, dict[str, int]] = {}
    for q in ("q1", "q2"):
        docs = draw(st.lists(doc_ids, unique=True, min_size=1, max_size=5))
        run[q] = {d: draw(st.sampled_from([1.0, 1.0 + 1e-9, 2.0])) for d in docs}
        judged = draw(st.dictionaries(doc_ids, st.integers(-1, 3), min_size=1, max_size=5))
        judged[draw(doc_ids)] = draw(st.integers(1, 3))
        qrels[q] = judged
    return run, qrels


def brute_force(
    run: Run, qrels: Mapping[str, Mapping[str, int]], metrics: Sequence[str], **kwargs: object
) -> dict[str, dict[str, float]]:
    """The mean of every metric over every order of every tie group, query by query."""
    # Queries are independent: the mean over the product of orders is each query's own mean.
    out: dict[str, dict[str, float]] = {}
    for q in run:
        reports = [
            evaluate_run({q: order[q]}, {q: qrels[q]}, metrics=metrics, k_values=KS, **kwargs)  # type: ignore[arg-type]
            for order in _orders({q: run[q]})
        ]
        keys = reports[0].per_query[q]
        out[q] = {
            key: math.fsum(r.per_query[q][key] for r in reports) / len(reports) for key in keys
        }
    return out


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=small_tied_runs())
def test_expected_is_the_mean_over_every_order_of_the_ties(
    data: tuple[Run, dict[str, dict[str, int]]],
) -> None:
    run, qrels = data
    got = evaluate_run(run, qrels, metrics=ALL, k_values=KS, tie_policy="expected")
    _close(got.per_query, brute_force(run, qrels, ALL))


#: The built-ins without an expected form of their own, with the parameters that change
#: their walk: tie_policy="expected" averages their batch forms over the orders of the ties.
BY_THE_ENGINE = (
    "binary_gain",
    "binary_gain(rel=2,judged_only=True)@3",
    "normalized_gain",
    "normalized_gain(judged_only=True)",
    "ndcg_rel",
    "ndcg_rel(judged_only=True)@3",
    "rndcg",
    "rndcg(rel=2,judged_only=True)",
    "set_map",
    "set_map(judged_only=True)@2",
    "iprec_at_recall(recall=0.5)",
    "iprec_at_recall(recall=0.2,judged_only=True)@3",
    "iprec_avg",
    "iprec_avg(judged_only=True)",
)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=small_tied_runs())
def test_the_builtins_without_an_expected_form_are_the_mean_over_every_order(
    data: tuple[Run, dict[str, dict[str, int]]],
) -> None:
    run, qrels = data
    got = evaluate_run(run, qrels, metrics=BY_THE_ENGINE, k_values=KS, tie_policy="expected")
    registry = Registry.load(autoload=False)
    names = {key.partition("(")[0].partition("@")[0] for key in BY_THE_ENGINE}
    assert all(registry.retrieval_metric(n).expected is None for n in names)  # the fallback
    _close(got.per_query, brute_force(run, qrels, BY_THE_ENGINE))


def test_expected_by_hand_for_a_constant_scorer() -> None:
    # Four docs all score 1.0 and one, d3, is relevant: it is equally likely at ranks 1-4.
    # RR = (1 + 1/2 + 1/3 + 1/4) / 4 = 25/48; P@1 = 1/4; P@2 = 2/4 / 2 = 1/4;
    # success@2 = 1/2; nDCG@2 = (1 + 1/log2(3)) / 4.
    run = {"q": {"d1": 1.0, "d2": 1.0, "d3": 1.0, "d4": 1.0}}
    report = evaluate_run(
        run,
        {"q": {"d3": 1}},
        metrics=("mrr@all", "precision@1", "precision@2", "success@2", "ndcg@2"),
        tie_policy="expected",
    )
    assert report.metrics == pytest.approx(
        {
            "mrr@all": 25 / 48,
            "precision@1": 1 / 4,
            "precision@2": 1 / 4,
            "success@2": 1 / 2,
            "ndcg@2": (1 + 1 / math.log2(3)) / 4,
        },
        abs=1e-12,
    )


def _first_two_grades(ranked: Sequence[str], judged: Mapping[str, float], k: int | None) -> float:
    """A third-party metric with neither a batch nor an expected form: 10 * grade at rank 1
    + grade at rank 2 (unjudged or negative: 0)."""
    grades = [max(judged.get(d, 0.0), 0.0) for d in ranked[:2]] + [0.0, 0.0]
    return 10 * grades[0] + grades[1]


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=small_tied_runs())
def test_a_plugin_metric_without_an_expected_form_is_averaged_too(
    data: tuple[Run, dict[str, dict[str, int]]],
) -> None:
    run, qrels = data
    registry = registry_with(RetrievalMetric(name="first_two", func=_first_two_grades))
    got = evaluate_run(
        run, qrels, metrics=("first_two@2",), tie_policy="expected", registry=registry
    )
    want = brute_force(run, qrels, ("first_two@2",), registry=registry)
    _close(got.per_query, want)


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=small_tied_runs())
def test_a_plugin_metric_with_only_a_batch_form_is_averaged_over_repeats(
    data: tuple[Run, dict[str, dict[str, int]]],
) -> None:
    # The built-in AP under another name, without its expected form: ties.expand's repeats.
    from ef.evaluation import average_precision
    from ef.evaluation.metrics.retrieval.average_precision import average_precision_batch

    run, qrels = data
    metric = RetrievalMetric(name="ap2", func=average_precision, batch=average_precision_batch)
    registry = registry_with(metric)
    got = evaluate_run(run, qrels, metrics=("ap2@3",), tie_policy="expected", registry=registry)
    _close(got.per_query, brute_force(run, qrels, ("ap2@3",), registry=registry))
    builtin = evaluate_run(run, qrels, metrics=("map@3",), tie_policy="expected")
    for q, row in got.per_query.items():
        assert math.isclose(row["ap2@3"], builtin.per_query[q]["map@3"], abs_tol=1e-12)


def test_too_many_orders_for_a_metric_without_an_expected_form_is_refused() -> None:
    # 40 tied docs, 12 judged with four different grades: far more than MAX_ORDERS orders.
    run = {"q": {f"d{i:02d}": 1.0 for i in range(40)}}
    qrels = {"q": {f"d{i:02d}": i % 4 for i in range(12)}}
    registry = registry_with(RetrievalMetric(name="first_two", func=_first_two_grades))
    with pytest.raises(
        ValueError, match=rf"first_two.*query 'q'.*distinct orders, more than {MAX_ORDERS:,}"
    ):
        evaluate_run(run, qrels, metrics=("first_two@2",), tie_policy="expected", registry=registry)


def test_the_diagnostic_names_the_queries_ties_could_change() -> None:
    run = {
        "a": {"d1": 3.0, "d2": 2.0, "d3": 2.0},  # d2 and d3 tie across cutoff 2; d3 relevant
        "b": {"d1": 3.0, "d2": 1.0, "d3": 1.0},  # a tie, but only among non-relevant docs
        "c": {"d1": 1.0, "d2": 1.0},  # two relevant docs of one grade tie: no order matters
        "d": {"d1": 2.0, "d2": 1.0},  # no tie
    }
    qrels = {
        "a": {"d3": 1},
        "b": {"d1": 1, "d2": 0},
        "c": {"d1": 2, "d2": 2},
        "d": {"d2": 1},
    }
    report = evaluate_run(run, qrels, metrics=("ndcg",), k_values=(1, 2))
    assert report.ties.tied == ("a", "b", "c")
    assert report.ties.at_cutoff == ("a", "b", "c")  # ranks 2 and 3 tie; c: ranks 1 and 2
    assert report.ties.at_relevant == ("a",)
    assert report.to_dict()["ties"] == {
        "policy": "trec_eval",
        "tied": ["a", "b", "c"],
        "at_cutoff": ["a", "b", "c"],
        "at_relevant": ["a"],
    }
    assert str(report).endswith(
        "ties (trec_eval): 3 queries with tied scores, 3 across a cutoff, 1 at a relevant doc "
        '(affected: a, b, c); tie_policy="expected" averages each metric over every order of '
        "the tied docs"
    )  # names the queries and the policy that averages over the orders
    # No tie reaches rank 5: none straddles a cutoff of 5 or 10.
    deeper = evaluate_run(run, qrels, metrics=("ndcg",), k_values=(5, 10))
    assert deeper.ties.at_cutoff == ()


def test_the_diagnostic_of_an_unordered_mapping_sorts_it_first() -> None:
    # Listed low score first: the tie at ranks 2 and 3 is found all the same.
    run = {"q": {"x": 1.0, "y": 1.0, "z": 5.0}}
    report = evaluate_run(run, {"q": {"x": 1}}, metrics=("precision@2",))
    assert report.ties.tied == report.ties.at_cutoff == report.ties.at_relevant == ("q",)


def test_ranked_lists_and_retrieval_have_no_ties() -> None:
    report = evaluate_run({"q": ["d1", "d2"]}, {"q": {"d1": 1}}, metrics=("ndcg@1",))
    assert report.ties.tied == report.ties.at_cutoff == ()


@pytest.mark.peers
@pytest.mark.parametrize("policy", ["trec_eval", "docno_asc"])
@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=tied_runs())
def test_ir_measures_providers_agree_with_the_policy_they_use(
    policy: str, data: tuple[Run, dict[str, dict[str, int]]]
) -> None:
    # ir_measures sends RR to pytrec_eval (doc id descending) and RR@k to its msmarco
    # provider (doc id ascending): each equals ours under the matching policy.
    # Its msmarco provider compares scores as float64: keep to scores that tie in both.
    ir_measures = pytest.importorskip("ir_measures")
    run = {q: {d: 1.0 if s == 1.0 + 1e-9 else s for d, s in r.items()} for q, r in data[0].items()}
    qrels = data[1]
    measure = ir_measures.parse_measure("RR" if policy == "trec_eval" else "RR@5")
    theirs = {m.query_id: m.value for m in ir_measures.iter_calc([measure], qrels, run)}
    key = "mrr@all" if policy == "trec_eval" else "mrr@5"
    ours = evaluate_run(run, qrels, metrics=(key,), averaging="run", tie_policy=policy).per_query  # type: ignore[arg-type]
    for q, value in theirs.items():
        assert ours[q][key] == pytest.approx(value, abs=1e-9), q
