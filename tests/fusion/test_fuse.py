"""fuse(): what it reads, what it refuses, what it returns, and plugin methods."""

from __future__ import annotations

import copy
import warnings
from pathlib import Path

import pytest

from ef.evaluation import (
    DuplicateNameError,
    FusionMethod,
    FusionParam,
    InputWarning,
    PluginError,
    Registry,
    RunTable,
    UnknownNameError,
    compare,
    evaluate_run,
    fuse,
    hookimpl,
    write_run,
)
from ef.evaluation._runs.ranked import RankedLists

BM25 = {"q1": {"d1": 12.0, "d2": 9.0, "d3": 4.0}, "q2": {"d4": 3.0, "d5": 1.0}}
DENSE = {"q1": {"d3": 0.9, "d1": 0.8, "d6": 0.1}, "q2": {"d5": 0.7, "d4": 0.2}}


@pytest.fixture
def registry() -> Registry:
    return Registry.load(autoload=False)


def test_every_run_shape_evaluate_run_takes_fuses_to_the_same_run(
    tmp_path: Path, registry: Registry
) -> None:
    path = tmp_path / "dense.trec"
    write_run(path, DENSE)
    expected = fuse([BM25, DENSE], method="sum", registry=registry).to_dict()
    assert expected["q1"] == pytest.approx({"d1": 1.875, "d3": 1.0, "d2": 0.625, "d6": 0.0})
    for dense in (path, str(path), RunTable.read(path), RunTable.from_dict(DENSE)):
        assert fuse([BM25, dense], method="sum", registry=registry).to_dict() == expected


def test_the_inputs_are_not_changed(registry: Registry) -> None:
    bm25, dense = copy.deepcopy(BM25), copy.deepcopy(DENSE)
    fuse({"bm25": bm25, "dense": dense}, method="wsum", norm="zmuv", registry=registry)
    assert (bm25, dense) == (BM25, DENSE)


def test_ranked_lists_fuse_by_their_ranks(registry: Registry) -> None:
    lists = {"q1": ["d3", "d1", "d6"], "q2": ["d5", "d4"]}
    # DENSE's scores rank its docs as the lists do, so a method of ranks cannot tell them apart.
    for method in ("rrf", "isr"):
        from_lists = fuse([BM25, lists], method=method, registry=registry).to_dict()
        assert from_lists == fuse([BM25, DENSE], method=method, registry=registry).to_dict()
    ranked = fuse([BM25, RankedLists(lists)], method="sum", norm="rank", registry=registry)
    assert ranked.to_dict() == fuse([BM25, DENSE], method="sum", norm="rank").to_dict()
    with pytest.raises(
        ValueError, match=r"runs\[1\] holds ranked lists without scores.*isr, .*rrf"
    ):
        fuse([BM25, lists], method="sum", registry=registry)


def test_ties_in_a_run_are_ranked_by_the_tie_policy(registry: Registry) -> None:
    tied = {"q1": {"a": 1.0, "b": 1.0, "c": 0.5}}
    other = {"q1": {"c": 1.0}}
    trec = fuse([tied, other], method="rrf", params={"k": 0}, registry=registry).to_dict()
    assert trec["q1"] == {"b": 1.0, "c": 1 / 3 + 1.0, "a": 0.5}  # b above a: docno descending
    asc = fuse([tied, other], method="rrf", params={"k": 0}, tie_policy="docno_asc")
    assert asc.to_dict()["q1"] == {"a": 1.0, "c": 1 / 3 + 1.0, "b": 0.5}
    assert fuse([tied, other], method="rrf", tie_policy="input_order").ranking("q1") == [
        "c",
        "a",
        "b",
    ]
    with pytest.raises(ValueError, match=r"tie_policy must be one of .*'expected' averages"):
        fuse([tied, other], method="rrf", tie_policy="expected", registry=registry)


def test_the_fused_run_lists_its_own_ties_by_the_tie_policy(registry: Registry) -> None:
    fused = fuse([{"q1": {"a": 1.0}}, {"q1": {"b": 1.0}}], method="rrf", registry=registry)
    assert list(fused.to_dict()["q1"]) == ["b", "a"]  # both 1/61: doc id descending
    assert fused.ranking("q1") == ["b", "a"]
    asc = fuse([{"q1": {"a": 1.0}}, {"q1": {"b": 1.0}}], method="rrf", tie_policy="docno_asc")
    assert list(asc.to_dict()["q1"]) == ["a", "b"]


def test_a_query_some_run_lacks_is_fused_from_the_others_with_a_warning(
    registry: Registry,
) -> None:
    partial = {"q1": DENSE["q1"]}
    with pytest.warns(InputWarning, match=r"'dense' lacks 1 of the 2 queries \('q2'\)"):
        fused = fuse({"bm25": BM25, "dense": partial}, method="sum", registry=registry)
    assert fused.query_ids == ("q1", "q2")
    assert fused.to_dict()["q2"] == {"d4": 1.0, "d5": 0.0}  # BM25's min-max scores alone


def test_runs_that_share_no_query_are_refused(registry: Registry) -> None:
    other = {"Q1": {"d1": 1.0}, "Q2": {"d2": 1.0}}
    with pytest.raises(
        ValueError,
        match=r"runs\[0\] shares no query .* \('1', '2'\), they "
        r"have 2 \('Q1', 'Q2'\)",
    ):
        fuse([{"1": {"d1": 1.0}, "2": {"d1": 1.0}}, other], registry=registry)
    with pytest.raises(ValueError, match=r"'empty' has no query"):
        fuse({"bm25": BM25, "empty": {}}, registry=registry)


def test_bad_calls_name_what_is_wrong(registry: Registry) -> None:
    with pytest.raises(ValueError, match="fuse needs two or more runs, got 1"):
        fuse([BM25], registry=registry)
    with pytest.raises(UnknownNameError, match=r"unknown fusion method 'rff'; did you mean 'rrf'"):
        fuse([BM25, DENSE], method="rff", registry=registry)
    with pytest.raises(UnknownNameError, match="fusion method 'rrf' has no parameter 'weights'"):
        fuse([BM25, DENSE], method="rrf", weights=(0.5, 0.5), registry=registry)
    with pytest.raises(ValueError, match="2 runs, got 3 values"):
        fuse([BM25, DENSE], weights=(0.2, 0.3, 0.5), registry=registry)
    with pytest.raises(ValueError, match="weights is given twice"):
        fuse([BM25, DENSE], weights=(1, 1), params={"weights": (1, 1)}, registry=registry)
    with pytest.raises(ValueError, match="parameter 'k' must be 0 or more, got -1"):
        fuse([BM25, DENSE], method="rrf", params={"k": -1}, registry=registry)
    with pytest.raises(ValueError, match="norm must be None or one of"):
        fuse([BM25, DENSE], norm="l2", registry=registry)
    negative = {"q1": {"d1": 0.5, "d2": -0.25}, "q2": {"d4": 1.0}}
    with pytest.raises(ValueError, match=r"'dense', query 'q1': norm='max' .* got -0.25"):
        fuse({"bm25": BM25, "dense": negative}, norm="max", registry=registry)
    with pytest.raises(TypeError, match=r"'dense': run is a list"):
        fuse({"bm25": BM25, "dense": [("q1", "d1", 1.0)]}, registry=registry)  # type: ignore[dict-item]
    with pytest.raises(ValueError, match=r"runs\[1\]: run\['q1'\]\['d1'\] = nan: not finite"):
        fuse([BM25, {"q1": {"d1": float("nan")}}], registry=registry)


def test_the_fused_run_is_named_and_evaluate_run_and_compare_take_it(
    registry: Registry,
) -> None:
    qrels = {"q1": {"d3": 1}, "q2": {"d5": 1}}
    rrf = fuse([BM25, DENSE], method="rrf", registry=registry)
    mnz = fuse([BM25, DENSE], method="mnz", name="bm25+dense", registry=registry)
    assert (rrf.name, mnz.name) == ("rrf", "bm25+dense")
    assert repr(rrf) == "<RunTable 'rrf': 2 queries, 6 docs>"
    # q1: d1 1/61 + 1/62 above d3 1/63 + 1/61; q2: d4 and d5 tie, d5 first (docno descending).
    report = evaluate_run(rrf, qrels, metrics=("mrr@10",), registry=registry)
    assert report.per_query == {"q1": {"mrr@10": 0.5}, "q2": {"mrr@10": 1.0}}
    pytest.importorskip("scipy")
    compared = compare([BM25, rrf, mnz], qrels, metrics=("mrr@10",), registry=registry)
    assert compared.systems == ("system-1", "rrf", "bm25+dense")
    assert compared.means["rrf"]["mrr@10"] == 0.75
    assert compared.means["system-1"]["mrr@10"] == pytest.approx((1 / 3 + 1 / 2) / 2)


def test_a_plugin_fusion_method_is_found_through_its_hook() -> None:
    def first_run_wins(results, *, bonus=0.0):
        fused: dict[str, float] = {}
        for position, scores in enumerate(results):
            for doc, score in scores.items():
                fused.setdefault(doc, score + (bonus if position == 0 else 0.0))
        return fused

    class Plugin:
        @hookimpl
        def ef_evaluation_fusion_methods(self):
            return [
                FusionMethod(
                    name="first", func=first_run_wins, params=[FusionParam("bonus", float, 0.0)]
                )
            ]

    registry = Registry.load(autoload=False, plugins={"firsts": Plugin()})
    assert registry.provider("first", "fusion").name == "firsts"
    assert "first" in registry.fusion_methods
    fused = fuse([BM25, DENSE], method="first", norm=None, params={"bonus": 10}, registry=registry)
    assert fused.to_dict()["q1"] == {"d1": 22.0, "d2": 19.0, "d3": 14.0, "d6": 0.1}
    assert fused.name == "first"
    with pytest.raises(ValueError, match="parameter 'bonus' must be a number"):
        fuse([BM25, DENSE], method="first", params={"bonus": "x"}, registry=registry)


def test_ids_that_are_not_str_are_refused_naming_the_run_query_and_doc(
    registry: Registry,
) -> None:
    # Refused before any method runs: the input is at fault, not the (built-in) method.
    for method in ("wsum", "rrf"):
        with pytest.raises(ValueError, match=r"^runs\[1\], query 'q1': a doc id is int 1; .*'1'"):
            fuse([BM25, {"q1": {1: 1.0}, "q2": {"d4": 1.0}}], method=method, registry=registry)  # type: ignore[dict-item]
    with pytest.raises(ValueError, match=r"^'dense', query 'q2': a doc id is int 7; ids must"):
        fuse({"bm25": BM25, "dense": {"q1": ["d1"], "q2": [7]}}, method="rrf", registry=registry)  # type: ignore[list-item]
    with pytest.raises(ValueError, match=r"^runs\[0\]: a query id is int 1; ids must be str"):
        fuse([{1: {"d1": 1.0}, "q2": {"d4": 1.0}}, BM25], registry=registry)  # type: ignore[dict-item]
    table = RunTable.from_dict({"q1": {2: 1.0}, "q2": {"d4": 1.0}})  # type: ignore[dict-item]
    with pytest.raises(ValueError, match=r"^runs\[0\], query 'q1': a doc id is int 2"):
        fuse([table, BM25], registry=registry)


def test_scores_near_the_float_limit_fuse_as_small_ones(registry: Registry) -> None:
    small = {"q1": {"d1": 1.0, "d2": -1.0, "d3": 0.0}, "q2": {"d4": 1.0}}
    # max - min is 2 ** 1024, one more than a float holds; a power of two scales exactly.
    huge = {q: {d: s * 2.0**1023 for d, s in docs.items()} for q, docs in small.items()}
    for norm in ("min-max", "zmuv", "sum"):
        for method in ("wsum", "sum", "mnz"):
            fused = fuse([huge, DENSE], method=method, norm=norm, registry=registry)
            assert fused.to_dict() == fuse([small, DENSE], method=method, norm=norm).to_dict()


def test_a_fused_score_that_overflows_blames_the_input_not_the_method(
    registry: Registry,
) -> None:
    huge = {"q1": {"d1": 1e308}, "q2": {"d4": 1.0}}
    with pytest.raises(
        ValueError, match=r"^query 'q1': the fused score overflows .*'huge'.* reach 1e\+308.*norm="
    ):
        fuse({"big": huge, "huge": huge}, method="sum", norm=None, registry=registry)
    with pytest.raises(ValueError, match=r"^query 'q1': .* parameters reach 1e\+308"):
        fuse([BM25, DENSE], weights=(1e308, 1e308), norm=None, registry=registry)
    # max adds nothing up: the same scores fuse.
    fused = fuse({"big": huge, "huge": huge}, method="max", norm=None, registry=registry)
    assert fused.to_dict()["q1"]["d1"] == 1e308


def test_what_a_plugin_method_does_wrong_is_a_plugin_error_naming_it() -> None:
    def boom(results):
        raise RuntimeError("no luck")

    def nan(results):
        return {"d1": float("nan")}

    def listed(results):
        return ["d1"]

    class Plugin:
        @hookimpl
        def ef_evaluation_fusion_methods(self):
            return [
                FusionMethod(name="boom", func=boom),
                FusionMethod(name="nan", func=nan),
                FusionMethod(name="listed", func=listed),
            ]

    registry = Registry.load(autoload=False, plugins={"bad": Plugin()})
    with pytest.raises(
        PluginError,
        match=r"fusion 'boom' of plugin 'bad' raised RuntimeError: no luck in its func, "
        r"on query 'q1'",
    ):
        fuse([BM25, DENSE], method="boom", registry=registry)
    with pytest.raises(PluginError, match=r"fusion 'nan' .* returned nan for doc 'd1'.*'q1'"):
        fuse([BM25, DENSE], method="nan", registry=registry)
    with pytest.raises(PluginError, match=r"fusion 'listed' .* returned list \['d1'\]"):
        fuse([BM25, DENSE], method="listed", registry=registry)


def test_a_plugin_returning_something_else_from_the_hook_is_a_plugin_error() -> None:
    class Plugin:
        @hookimpl
        def ef_evaluation_fusion_methods(self):
            return ["rrf"]

    with pytest.raises(PluginError, match="expected FusionMethod objects"):
        Registry.load(autoload=False, plugins={"wrong": Plugin()})


def test_a_plugin_method_named_like_a_builtin_is_a_clash() -> None:
    class Plugin:
        @hookimpl
        def ef_evaluation_fusion_methods(self):
            return [FusionMethod(name="rrf", func=lambda rankings: {})]

    with pytest.raises(DuplicateNameError, match=r"^fusion 'rrf' is provided by two plugins"):
        Registry.load(autoload=False, plugins={"mine": Plugin()})


def test_no_warning_when_the_queries_match(registry: Registry) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fuse([BM25, DENSE], registry=registry)
