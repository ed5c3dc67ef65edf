"""Inputs that are probably a mistake stop the evaluation with a message, not a number (issue 15).

Wrong shapes, bad grades, runs that share no query with the qrels, swapped arguments; a run
that answers fewer than half of the judged queries gives an ``InputWarning``.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path
from typing import Any, cast

import pytest

from ef.evaluation import (
    DatasetFormatError,
    InputWarning,
    Registry,
    RunTable,
    compare,
    evaluate_pipeline,
    evaluate_rag,
    evaluate_retrieval,
    evaluate_run,
    fuse,
    read_qrels,
    read_run,
    retrieve,
)
from ef.evaluation._engine.measures import parse_measure
from ef.evaluation.compat import ir_measures, pytrec_eval
from ef.evaluation.metrics.retrieval.ndcg import ndcg_at_k

from .conftest import shared_path

QRELS = {"q1": {"d1": 1, "d2": 0}, "q2": {"d3": 2}, "q3": {"d4": 1}}
RUN = {"q1": {"d1": 0.9, "d2": 0.4}, "q2": {"d3": 0.7, "d5": 0.2}, "q3": {"d4": 0.1}}


# Item 1: the shapes of run and qrels.


class _Frame:
    """Stands for a pandas DataFrame: has items() and values, is no Mapping."""

    values = ((1, 2),)

    def items(self) -> list[tuple[str, list[int]]]:
        return [("qid", [1])]


@pytest.mark.parametrize(
    ("run", "what"),
    [
        ([("q1", "d1", 0.5)], "list"),
        (_Frame(), "_Frame"),
        (("q1", "d1"), "tuple"),
        (42, "int"),
        ("q1 Q0 d1 1 0.5 bm25\nq1 Q0 d2 2 0.4 bm25\n", "str"),
        (b"run.trec", "bytes"),
    ],
)
def test_a_run_of_an_unsupported_type_lists_the_accepted_shapes(run: object, what: str) -> None:
    with pytest.raises(TypeError) as caught:
        evaluate_run(run, QRELS)  # type: ignore[arg-type]
    message = str(caught.value)
    assert what in message
    for shape in ("{qid: {doc: score}}", "{qid: [doc, ...]}", "RunTable", "path"):
        assert shape in message


def test_a_pandas_data_frame_whose_columns_cannot_be_told_names_them() -> None:
    # DataFrames are runs and qrels (tests/formats/test_tables.py); these columns are no
    # known set, so the error lists them and the sets it knows, never a bare TypeError.
    pandas = pytest.importorskip("pandas")
    frame = pandas.DataFrame({"qid": ["q1"], "docid": ["d1"], "score": [0.5]})
    with pytest.raises(
        DatasetFormatError,
        match=r"^the run DataFrame: cannot tell the query, doc and score columns among qid, "
        r"docid, score; expected ranx's q_id, doc_id, score",
    ):
        evaluate_run(frame, QRELS)
    with pytest.raises(DatasetFormatError, match=r"^the qrels DataFrame: cannot tell"):
        evaluate_run(RUN, frame)


@pytest.mark.parametrize(
    "ranked", ["d1", 0.5, {"d1", "d2"}, None], ids=["str", "float", "set", "none"]
)
def test_one_query_of_an_unsupported_shape_is_named(ranked: object) -> None:
    run = {"q1": {"d1": 0.9}, "q2": ranked}
    with pytest.raises(TypeError, match=r"run\['q2'\].*\{doc: score\}.*\[doc, \.\.\.\]"):
        evaluate_run(run, QRELS)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "run",
    [
        {"q1": ["d2", "d1", "d2"], "q2": ["d3"]},
        {"q1": ["d2", "d1", "d2"], "q2": {"d3": 0.5}},  # lists and scores: a RunTable
    ],
    ids=["ranked-lists", "mixed"],
)
def test_a_ranked_list_with_a_doc_twice_is_refused_naming_query_and_doc(run: Any) -> None:
    # A run file that lists a doc twice is refused; the same run in memory is too.
    with pytest.raises(ValueError, match=r"run\['q1'\] lists doc 'd2' twice \(ranks 1 and 3\)"):
        evaluate_run(run, QRELS)
    with pytest.raises(ValueError, match=r"dict\.fromkeys"):
        RunTable.from_dict(run)


def test_every_doc_listed_twice_is_named_at_once() -> None:
    run = {"q1": ["d1", "d1"], "q2": ["d3", "x", "d3", "d3"]}
    with pytest.raises(ValueError, match="names each doc once") as caught:
        evaluate_run(run, QRELS)
    assert "run['q1'] lists doc 'd1' twice (ranks 1 and 2)" in str(caught.value)
    assert "run['q2'] lists doc 'd3' 3 times (ranks 1, 3 and 4)" in str(caught.value)


@pytest.mark.parametrize(
    "qrels",
    [[("q1", "d1", 1)], {"q1": [("d1", 1)]}, {"q1": "d1"}, 3],
    ids=["list", "query-list", "query-str", "int"],
)
def test_qrels_of_an_unsupported_shape_list_the_accepted_ones(qrels: object) -> None:
    with pytest.raises(TypeError) as caught:
        evaluate_run(RUN, qrels)  # type: ignore[arg-type]
    assert "{qid: {doc: grade}}" in str(caught.value)
    assert "path" in str(caught.value)


@pytest.mark.parametrize(
    ("grade", "shown"),
    [
        (float("inf"), "inf"),
        (float("nan"), "nan"),
        (True, "True"),
        ("1", "'1'"),
        (None, "None"),
        (10**400, "100000000000000000...0000000000000000000"),  # was a bare OverflowError
    ],
)
def test_a_bad_grade_names_its_query_and_doc(grade: object, shown: str) -> None:
    qrels = {"q1": {"d1": 1}, "q2": {"d3": grade, "d4": 1}}
    with pytest.raises(ValueError, match=re.escape(f"qrels['q2']['d3'] = {shown}:")) as caught:
        evaluate_run(RUN, cast("Any", qrels), metrics=("ndcg@10",))
    assert "ndcg" not in str(caught.value)  # the grade is blamed, not a metric plugin


def test_a_bad_grade_stops_every_profile_too() -> None:
    qrels = {"q1": {"d1": float("inf")}}
    for profile in ("trec_eval", "beir", "mteb", "ranx"):
        with pytest.raises(ValueError, match=re.escape("qrels['q1']['d1'] = inf")):
            evaluate_run(RUN, qrels, profile=profile)


@pytest.mark.parametrize("check_swapped", [True, False])
def test_a_score_too_large_for_a_float_is_named(check_swapped: bool) -> None:
    # Was a bare "OverflowError: int too large to convert to float".
    run = {**RUN, "q2": {"d3": 10**400, "d5": 0.2}}
    shown = re.escape("run['q2']['d3'] = 100000000000000000...0000000000000000000: not finite")
    with pytest.raises(ValueError, match=f"^{shown}$"):
        evaluate_run(run, QRELS, check_swapped=check_swapped)


def test_grades_too_large_for_a_float_are_named_though_their_sum_is_finite() -> None:
    # 10**400 - 10**400 is 0: a check of the sum alone let them through to a bare
    # OverflowError, in evaluate_run's qrels, a run's scores and a reference metric alike.
    huge = {"d3": 10**400, "d4": -(10**400), "d5": 1}
    shown = re.escape("['d3'] = 100000000000000000...0000000000000000000")
    with pytest.raises(ValueError, match=f"^qrels\\['q2'\\]{shown}: a grade is a finite"):
        evaluate_run(RUN, {"q1": {"d1": 1}, "q2": huge}, metrics=("ndcg@10",))
    with pytest.raises(ValueError, match=f"^run\\['q2'\\]{shown}: not finite$"):
        evaluate_run({**RUN, "q2": huge}, QRELS)
    with pytest.raises(ValueError, match=f"^ndcg_at_k\\(ranked, relevant, k\\): relevant{shown}"):
        ndcg_at_k(["d3"], huge, 10)


def test_finite_grades_whose_sum_overflows_are_fine() -> None:
    qrels: dict[str, dict[str, float]] = {"q1": {"d1": 1e308, "d2": 1e308}, "q2": {"d3": 1}}
    assert evaluate_run(RUN, qrels, metrics=("mrr@10",)).metrics == {"mrr@10": 1.0}


def test_numpy_grades_and_float_grades_are_fine() -> None:
    numpy = pytest.importorskip("numpy")
    qrels = {"q1": {"d1": numpy.int64(1)}, "q2": {"d3": 2.0}, "q3": {"d4": numpy.float64(1)}}
    report = evaluate_run(RUN, qrels, metrics=("mrr@10",))
    assert report.metrics == {"mrr@10": 1.0}


# Item 2: no query in common.


@pytest.mark.parametrize(
    ("run_ids", "qrels_ids", "cause"),
    [
        (["Q1", "Q2", "Q3"], ["1", "2", "3"], "every run id starts with 'Q'"),
        (["1", "2", "3"], ["q1", "q2", "q3"], "every qrels id starts with 'q'"),
        (["1-a", "2-a"], ["1", "2"], "every run id ends with '-a'"),
        (["001", "002"], ["1", "2"], "leading zeros"),
        ([1, 2, 3], ["1", "2", "3"], "the run's query ids are int, qrels' are str"),
        (["1 ", " 2"], ["1", "2"], "whitespace"),
        (["A1", "A2"], ["a1", "a2"], "case"),
    ],
)
def test_no_query_in_common_is_an_error_with_the_likely_cause(
    run_ids: list[object], qrels_ids: list[object], cause: str
) -> None:
    run = {q: {"d1": 1.5} for q in run_ids}
    qrels = {q: {"d1": 1} for q in qrels_ids}
    for averaging in ("qrels", "intersection", "run"):
        with pytest.raises(ValueError, match="no query can be scored") as caught:
            evaluate_run(run, qrels, averaging=averaging)  # type: ignore[arg-type]
        message = str(caught.value)
        assert "no query in common" in message
        assert cause in message
        for query_id in (*run_ids, *qrels_ids):
            assert repr(query_id) in message


def test_no_query_in_common_shows_only_the_first_sorted_ids() -> None:
    run = {f"r{i:03d}": {"d1": 0.5} for i in range(100)}
    qrels = {str(i): {"d1": 1} for i in range(100, 0, -1)}
    with pytest.raises(ValueError, match="no query in common") as caught:
        evaluate_run(run, qrels)
    message = str(caught.value)
    assert "run has 100 queries ('r000', 'r001', 'r002', ...)" in message
    assert "qrels has 100 judged queries ('1', '10', '100', ...)" in message


def test_no_query_in_common_stops_profiles_and_compare() -> None:
    run = {"Q1": {"d1": 0.5}}
    for profile in ("trec_eval", "beir", "mteb", "ranx"):
        with pytest.raises(ValueError, match="no query in common"):
            evaluate_run(run, {"1": {"d1": 1}}, profile=profile)
    with pytest.raises(ValueError, match=r"no query in common.*'Q'"):
        compare({"a": run, "b": run}, {"1": {"d1": 1}, "2": {"d1": 1}})


def test_a_run_that_shares_only_unjudged_queries_is_an_error() -> None:
    # q9 is judged with no relevant doc: sharing it alone would score 0 for q1.
    qrels = {"q1": {"d1": 1}, "q9": {"d1": 0}}
    with pytest.raises(ValueError, match="none of the 1 queries with a relevant doc"):
        evaluate_run({"q9": {"d1": 0.5}}, qrels)


def test_an_empty_run_is_an_error() -> None:
    with pytest.raises(ValueError, match="no query can be scored: the run is empty"):
        evaluate_run({}, QRELS)


def test_the_run_file_of_another_collection_is_an_error(tmp_path: Path) -> None:
    run = tmp_path / "run.trec"
    run.write_text("Q1 Q0 d1 1 0.5 bm25\n", encoding="utf-8")
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("1 0 d1 1\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"no query in common.*'Q1'.*'1'.*starts with 'Q'"):
        evaluate_run(run, qrels)


def test_evaluate_retrieval_needs_a_text_for_some_judged_query() -> None:
    def retriever(query: str, *, limit: int = 10) -> list[str]:
        return ["d1"]

    with pytest.raises(ValueError, match="no judged query has a text") as caught:
        evaluate_retrieval(retriever, {"1": {"d1": 1}}, {"Q1": "alpha", "Q2": "beta"})
    message = str(caught.value)
    assert "no judged query has a text in queries" in message
    for part in ("'Q1'", "'1'", "starts with 'Q'"):
        assert part in message


# Item 3: partial overlap.


def test_a_run_with_fewer_than_half_of_the_judged_queries_warns() -> None:
    qrels = {f"q{i}": {"d1": 1} for i in range(10)}
    run = {"q1": {"d1": 0.5}, "q2": {"d1": 0.5}, "q3": {"d1": 0.5}, "x": {"d1": 0.5}}
    with pytest.warns(InputWarning) as caught:
        report = evaluate_run(run, qrels, metrics=("mrr@10",))
    assert report.metrics == {"mrr@10": 0.3}  # the number is right; the warning says why it is low
    message = str(caught[0].message)
    assert "3 of the 10 judged queries" in message
    assert "'q0', 'q4', 'q5'" in message  # the first missing ones


def test_half_of_the_judged_queries_is_enough() -> None:
    qrels = {f"q{i}": {"d1": 1} for i in range(4)}
    run = {"q0": {"d1": 0.5}, "q1": {"d1": 0.5}}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert evaluate_run(run, qrels, metrics=("mrr@10",)).metrics == {"mrr@10": 0.5}


def test_input_warning_is_a_user_warning() -> None:
    assert issubclass(InputWarning, UserWarning)


# Item 4: run and qrels swapped.


def test_swapped_mappings_are_refused() -> None:
    with pytest.raises(ValueError, match="look swapped") as caught:
        evaluate_run(QRELS, RUN)
    message = str(caught.value)
    assert "swapped" in message
    assert "evaluate_run(run, qrels)" in message
    assert "check_swapped=False" in message
    assert "qrels['q1']['d1'] = 0.9" in message  # the value that gave it away


def test_check_swapped_false_scores_them_anyway() -> None:
    # The documented way out: grades of 0.9 may be meant (fractional relevance).
    report = evaluate_run(QRELS, RUN, metrics=("mrr@10",), check_swapped=False)
    assert report.n_queries == 3


def test_fractional_grades_with_a_scored_run_are_not_a_swap() -> None:
    qrels = {"q1": {"d1": 0.5}, "q2": {"d3": 1.0}, "q3": {"d4": 0.25}}
    assert evaluate_run(RUN, qrels, metrics=("mrr@10",)).metrics == {"mrr@10": 1.0}


def test_integral_scores_with_integral_grades_are_not_a_swap() -> None:
    run = {"q1": {"d1": 3, "d2": 2}, "q2": {"d3": 1}, "q3": {"d4": 1}}
    assert evaluate_run(run, QRELS, metrics=("mrr@10",)).metrics == {"mrr@10": 1.0}


@pytest.fixture(scope="module")
def cacm_mappings() -> tuple[dict[str, dict[str, float]], dict[str, dict[str, float]]]:
    cacm = shared_path("datasets", "cacm")
    qrels = read_qrels(cacm / "qrels.cacm.txt")
    run = read_run(cacm / "run.cacm-bm25.txt")
    return (
        {q: dict(docs) for q, docs in qrels.items()},
        {q: dict(docs) for q, docs in run.items()},
    )


def test_swapped_cacm_mappings_are_refused(cacm_mappings) -> None:
    qrels, run = cacm_mappings
    assert f"{evaluate_run(run, qrels, metrics=('map@all',)).metrics['map@all']:.4f}" == "0.2744"
    with pytest.raises(ValueError, match=r"swapped.*evaluate_run\(run, qrels\)"):
        evaluate_run(qrels, run, metrics=("map@all",))


def test_a_run_table_of_the_cacm_run_is_scored_as_before(cacm_mappings) -> None:
    qrels, run = cacm_mappings
    table = RunTable.from_dict(run)
    assert f"{evaluate_run(table, qrels, metrics=('map@all',)).metrics['map@all']:.4f}" == "0.2744"


@pytest.mark.parametrize("grade", [float("nan"), float("inf"), "1", True])
def test_evaluate_retrieval_checks_its_grades_as_evaluate_run_does(grade: object) -> None:
    # A NaN grade scored silently, an inf one was blamed on the ndcg metric, a str raised a
    # bare TypeError: the same check as evaluate_run's names the judgement, before retrieval.
    def retriever(query: str, *, limit: int = 10) -> list[str]:
        return ["d1", "d2"]

    qrels = {"q1": {"d1": grade}, "q2": {"d2": 1}}
    with pytest.raises((ValueError, TypeError), match=r"qrels\['q1'\]\['d1'\]"):
        evaluate_retrieval(retriever, qrels, {"q1": "a", "q2": "b"})  # type: ignore[arg-type]


# Issue 25: one cutoff where a sequence of them belongs.

_SAMPLES = [{"retrieved_context_ids": ["d1"], "reference_context_ids": ["d1"]}]


@pytest.mark.parametrize("k_values", [10, "10", 10.0, None])
@pytest.mark.parametrize(
    "call",
    [
        lambda k: evaluate_run(RUN, QRELS, k_values=k),
        lambda k: evaluate_retrieval(lambda q, limit=10: ["d1"], QRELS, {"q1": "a"}, k_values=k),
        lambda k: evaluate_rag(_SAMPLES, metrics=["ids.ndcg"], k_values=k),
        lambda k: compare({"a": RUN, "b": RUN}, QRELS, k_values=k),
    ],
    ids=["evaluate_run", "evaluate_retrieval", "evaluate_rag", "compare"],
)
def test_one_cutoff_alone_is_a_type_error_showing_the_sequence(call, k_values) -> None:
    # Was "TypeError: 'int' object is not iterable"; a str would have been cutoffs "1" and "0".
    with pytest.raises(TypeError, match=r"^k_values takes a sequence of cutoffs, e\.g\. k_values="):
        call(k_values)


# Issue 25: evaluate_retrieval's and evaluate_pipeline's arguments in the wrong order.

_QUERIES = {"q1": "first", "q2": "second", "q3": "third"}


def _retriever(query: str, *, limit: int = 10) -> list[str]:
    return ["d1", "d3", "d4"][:limit]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ((_retriever, _QUERIES, QRELS), "are qrels and queries swapped?"),
        ((QRELS, _QUERIES, _retriever), "queries is a function: the retriever comes first"),
        ((_retriever, QRELS, ["first"]), "queries is a list; expected {query_id: text}"),
        ((_retriever, "qrels.txt", _QUERIES), "pass read_qrels('qrels.txt')"),
    ],
)
def test_evaluate_retrieval_names_arguments_in_the_wrong_order(arguments, message) -> None:
    # Was "qrels['q1'] is a str; expected {doc: grade}" or a bare "list indices must be ...".
    call = re.escape("evaluate_retrieval(retriever, qrels, queries): ")
    with pytest.raises(TypeError, match=f"^{call}.*{re.escape(message)}"):
        evaluate_retrieval(*arguments)
    call = re.escape("evaluate_pipeline(retriever, qrels, queries, ...): ")
    with pytest.raises(TypeError, match=f"^{call}.*{re.escape(message)}"):
        evaluate_pipeline(*arguments, generate={"q1": "a"}, corpus={"d1": "text"})


def test_retrieve_with_its_arguments_swapped_says_so() -> None:
    with pytest.raises(TypeError, match=r"^retrieve\(retriever, queries\): queries is a function"):
        retrieve(_QUERIES, _retriever)  # type: ignore[arg-type]


def test_compare_with_systems_and_qrels_swapped_says_so() -> None:
    # Was "qrels['a']['q1'] = {...}: a grade is a number": about a grade, not the order.
    other = {q: dict(reversed(list(docs.items()))) for q, docs in RUN.items()}
    with pytest.raises(TypeError, match=r"^compare\(systems, qrels\): qrels holds runs, .*swapped"):
        compare(QRELS, {"a": RUN, "b": other})  # type: ignore[arg-type, dict-item]


@pytest.mark.parametrize(
    "call",
    [
        lambda: evaluate_run(RUN, QRELS, metrics=10),  # type: ignore[arg-type]
        lambda: evaluate_rag(_SAMPLES, metrics=10),  # type: ignore[arg-type]
        lambda: compare({"a": RUN, "b": RUN}, QRELS, metrics=10),  # type: ignore[arg-type]
    ],
    ids=["evaluate_run", "evaluate_rag", "compare"],
)
def test_metrics_that_are_no_sequence_of_names_say_so(call) -> None:
    # Was "TypeError: 'int' object is not iterable".
    with pytest.raises(TypeError, match=r"^metrics must be a sequence of names, e\.g\. .*got 10"):
        call()


# Issue 25: a registry= that is no Registry (a name, say) was a bare AttributeError.


@pytest.mark.parametrize("registry", ["default", "builtin", 0, {}])
@pytest.mark.parametrize(
    "call",
    [
        lambda r: evaluate_run(RUN, QRELS, registry=r),
        lambda r: compare({"a": RUN, "b": RUN}, QRELS, registry=r),
        lambda r: evaluate_rag(_SAMPLES, metrics=["ids.ndcg"], registry=r),
        lambda r: evaluate_retrieval(_retriever, QRELS, _QUERIES, registry=r),
        lambda r: retrieve(_retriever, _QUERIES, registry=r),
        lambda r: fuse([RUN, RUN], registry=r),
        lambda r: read_run("run.trec", registry=r),
        lambda r: parse_measure("ndcg@10", registry=r),
        lambda r: ir_measures.calc_aggregate(["nDCG@10"], QRELS, RUN, registry=r),
        lambda r: pytrec_eval.RelevanceEvaluator(QRELS, {"map"}, registry=r),
    ],
    ids=[
        "evaluate_run",
        "compare",
        "evaluate_rag",
        "evaluate_retrieval",
        "retrieve",
        "fuse",
        "read_run",
        "parse_measure",
        "ir_measures",
        "pytrec_eval",
    ],
)
def test_a_registry_that_is_no_registry_says_what_to_pass(call, registry) -> None:
    # Was "AttributeError: 'str' object has no attribute 'derived'" from evaluate_run.
    message = r"^registry= takes a Registry \(get_registry\(\), or Registry\.load\(\) .* or None"
    with pytest.raises(
        TypeError, match=f"{message} for the default, got a {type(registry).__name__}"
    ):
        call(registry)


def test_a_registry_of_its_own_is_still_taken() -> None:
    report = evaluate_run(RUN, QRELS, metrics=["ndcg@10"], registry=Registry.load())
    assert report.metrics == evaluate_run(RUN, QRELS, metrics=["ndcg@10"]).metrics


@pytest.mark.parametrize(
    ("keyword", "value", "error", "message"),
    [
        ("check_swapped", "no", TypeError, "check_swapped must be True or False, got 'no'"),
        (
            "check_doc_ids",
            "off",
            ValueError,
            "check_doc_ids must be True, False or 'warn', got 'off'",
        ),
    ],
)
def test_a_check_switch_that_is_no_bool_is_named(
    keyword: str, value: object, error: type[Exception], message: str
) -> None:
    # "no" is truthy: read as True it would leave the check on while the user meant it off.
    run, qrels = {"q1": {"d1": 0.5}}, {"q1": {"d1": 1}}
    with pytest.raises(error, match=f"^{re.escape(message)}$"):
        evaluate_run(run, qrels, metrics=("ndcg@10",), **cast("dict[str, Any]", {keyword: value}))


@pytest.mark.parametrize(
    ("qrels", "error", "message"),
    [
        ({"q1": {"d1": float("nan")}, "q2": ["d2"]}, ValueError, r"^qrels\['q1'\]\['d1'\] = nan"),
        ({"q1": ["d2"], "q2": {"d1": float("nan")}}, TypeError, r"^qrels\['q1'\] is a list"),
        ({"q1": {"d1": 1}, "q2": {"d2": True}}, ValueError, r"^qrels\['q2'\]\['d2'\] = True"),
    ],
)
def test_the_qrels_check_names_the_first_fault_in_query_order(qrels, error, message) -> None:
    from ef.evaluation._evaluate.inputs import check_qrels

    with pytest.raises(error, match=message):
        check_qrels(qrels)


def test_finite_grades_whose_sum_overflows_pass_the_qrels_check() -> None:
    from ef.evaluation._evaluate.inputs import check_qrels

    # Each grade is finite; only their sum is not, which the one-pass check cannot tell: it
    # looks at each query then, and raises nothing.
    check_qrels({"q1": {"d1": 1e308}, "q2": {"d2": 1e308, "d3": 1e308}})
