"""Measure strings: three syntaxes, one canonical key, clear errors."""

from __future__ import annotations

import math
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ef.evaluation import (
    MetricParam,
    Registry,
    RetrievalMetric,
    Synonym,
    evaluate_run,
)
from ef.evaluation._engine.measures import (
    Measure,
    format_value,
    parse_measure,
    parse_measures,
    trec_eval_differences,
    trec_eval_set,
)
from ef.evaluation.errors import DuplicateNameError, UnknownNameError
from ef.evaluation.testing import registry_with

BUILTINS = Registry.load(autoload=False)


def keys(spec: str, k_values: tuple[int, ...] = (1, 10)) -> list[str]:
    return [m.key for m in parse_measure(spec, k_values=k_values, registry=BUILTINS)]


# The examples of issue 8 and of the catalogue, in each syntax, with the key each gives.
SAME = {
    # ours
    "ndcg@10": ["ndcg@10"],
    "ndcg": ["ndcg@1", "ndcg@10"],
    "ndcg@all": ["ndcg@all"],
    "precision(rel=2)@5": ["precision(rel=2)@5"],
    "precision(rel=2.0, judged_only=False)@5": ["precision(rel=2)@5"],
    "map(judged_only=True)@all": ["map(judged_only=True)@all"],
    "rprec": ["rprec"],
    "rprec@10": ["rprec@10"],
    "hit_rate@5": ["success@5"],
    "r_precision": ["rprec"],
    # ir_measures'
    "nDCG@10": ["ndcg@10"],
    "NDCG@10": ["ndcg@10"],
    "P(rel=2)@5": ["precision(rel=2)@5"],
    "AP(judged_only=True)": ["map(judged_only=True)@all"],
    "RBP(p=0.8)": ["rbp(p=0.8)"],
    "RBP": ["rbp(p=0.8)"],
    "RBP(p=0.5,rel=2)": ["rbp(p=0.5,rel=2)"],
    "R@100": ["recall@100"],
    "RR@10": ["mrr@10"],
    "RR": ["mrr@all"],
    "Judged@10": ["judged@10"],
    "Success@5": ["success@5"],
    "ERR@20": ["err@20"],
    "Rprec": ["rprec"],
    "Bpref": ["bpref"],
    "infAP": ["infap"],
    "NumRet": ["num_ret"],
    "NumRel": ["num_rel"],
    "NumRelRet": ["num_rel_ret"],
    "NumRet(rel=2)": ["num_rel_ret(rel=2)"],
    "SetP": ["precision@all"],
    "SetP(relative=True)": ["r_cap@all"],
    "SetF": ["f1@all"],
    "nDCG(dcg='exp-log2')@10": ["ndcg(dcg='exp-log2')@10"],
    "nDCG(gains={0:0,1:1,2:3})@10": ["ndcg(gains={0:0,1:1,2:3})@10"],
    "nDCG(gains={1: 1, 2: 3})": ["ndcg(gains={1:1,2:3})@all"],
    # trec_eval's
    "ndcg_cut.10": ["ndcg@10"],
    "ndcg_cut": ["ndcg@1", "ndcg@10"],
    "P.5,10": ["precision@5", "precision@10"],
    "P": ["precision@1", "precision@10"],
    "recall.100": ["recall@100"],
    "map_cut.10": ["map@10"],
    "recip_rank": ["mrr@all"],
    "bpref": ["bpref"],
    "success.1,5": ["success@1", "success@5"],
    "num_ret": ["num_ret"],
    "set_P": ["precision@all"],
    "set_relative_P": ["r_cap@all"],
    "relative_P.5": ["r_cap@5"],
    "unj.5,10": ["hole@5", "hole@10"],
    "ndcg.1=3,2=9,4=4.5": ["ndcg(gains={1:3,2:9,4:4.5})@all"],
    "rbp.p=0.5": ["rbp(p=0.5,graded=True)"],  # trec_eval's rbp has graded gains
    "rbp_resid": ["rbp_resid"],
    # trec_eval's printed names (issue 15): its output can be fed back
    "P_30": ["precision@30"],
    "ndcg_cut_10": ["ndcg@10"],
    "recall_100": ["recall@100"],
    "map_cut_5": ["map@5"],
    "success_10": ["success@10"],
    "relative_P_5": ["r_cap@5"],
    "unj_10": ["hole@10"],
    "ndcg_1=3,2=9": ["ndcg(gains={1:3,2:9})@all"],
    "rbp_p=0.5": ["rbp(p=0.5,graded=True)"],
    "num_rel_ret": ["num_rel_ret"],
    "set_F": ["f1@all"],
    # trec_eval's named sets, at trec_eval's cutoffs, without the members not implemented
    "set": [
        "num_ret",
        "num_rel",
        "num_rel_ret",
        "utility",
        "precision@all",
        "recall@all",
        "r_cap@all",
        "set_map",
        "f1@all",
    ],
    # where ours and trec_eval's names meet, ours wins
    "map": ["map@1", "map@10"],
    "rbp": ["rbp"],
}


@pytest.mark.parametrize("spec", SAME)
def test_each_syntax_resolves_to_the_canonical_key(spec: str) -> None:
    assert keys(spec) == SAME[spec]


def test_the_same_measure_is_the_same_object() -> None:
    ours = parse_measure("precision(rel=2)@5", registry=BUILTINS)
    assert ours == parse_measure("P(rel=2)@5", registry=BUILTINS)
    assert ours[0].metric is BUILTINS.retrieval_metric("precision")
    assert ours[0].kwargs == {"rel": 2.0, "judged_only": False}
    assert parse_measure(" ndcg@10 ", registry=BUILTINS)[0].kwargs["gains"] is None


def test_a_measures_keywords_are_shared_and_read_only() -> None:
    # Worked out once and handed to every call of the metric: a caller's change to them
    # would reach the next call, so they refuse one.
    (measure,) = parse_measure("precision(rel=2)@5", registry=BUILTINS)
    assert measure.kwargs is measure.kwargs
    with pytest.raises(TypeError, match="read-only"):
        measure.kwargs["rel"] = 3.0
    assert measure.kwargs == {"rel": 2.0, "judged_only": False}
    assert measure.key == "precision(rel=2)@5"


def test_parse_measures_keeps_each_key_once_in_order() -> None:
    measures = parse_measures(["P.5", "precision@5", "nDCG@3", "P.5,10"], registry=BUILTINS)
    assert [m.key for m in measures] == ["precision@5", "ndcg@3", "precision@10"]
    with pytest.raises(TypeError, match="not a str"):
        parse_measures("ndcg", registry=BUILTINS)


# --- round trips ------------------------------------------------------------------------


def _values(param: MetricParam) -> st.SearchStrategy[Any]:
    if param.choices:
        return st.sampled_from(param.choices)
    if param.type is bool:
        return st.booleans()
    if param.type is dict:
        numbers = st.one_of(st.integers(-3, 5), st.sampled_from([0.5, 2.75, 1e-3]))
        return st.dictionaries(numbers, numbers, min_size=1, max_size=4)
    if param.name in ("p", "recall"):
        return st.floats(min_value=0.01, max_value=0.99)
    by_type: dict[type, st.SearchStrategy[Any]] = {
        str: st.sampled_from(["0.5", "0.2,0.8", "0,0.25,1"]),  # iprec_avg's recall levels
        int: st.integers(0, 10_000),  # utility's collection size
    }
    numbers = st.one_of(st.integers(1, 4), st.floats(min_value=0.01, max_value=1e6))
    return by_type.get(param.type, numbers.filter(lambda v: _in_range(param, v)))


def _in_range(param: MetricParam, value: object) -> bool:
    """Whether the parameter's own check takes ``value`` (err's max_grade stops at 1024)."""
    try:
        param.convert(value)
    except ValueError:
        return False
    return True


@st.composite
def measures(draw: st.DrawFn) -> Measure:
    metric = draw(st.sampled_from(list(BUILTINS.retrieval_metrics.values())))
    chosen = {}
    for param in metric.params:
        if draw(st.booleans()):
            chosen[param.name] = param.convert(draw(_values(param)))
    if chosen.get("graded"):
        chosen.pop("rel", None)
    params = [(p.name, chosen[p.name]) for p in metric.params if p.name in chosen]
    params = [(n, v) for n, v in params if v != metric.param(n).default]
    k = draw(st.one_of(st.none(), st.integers(1, 2000)))
    return Measure(metric, k, params)


@given(measure=measures())
def test_a_canonical_key_parses_back_to_its_measure(measure: Measure) -> None:
    assert parse_measure(measure.key, registry=BUILTINS) == [measure]


@given(measure=measures(), spaces=st.booleans())
def test_parameters_may_be_spelled_in_any_order_and_form(measure: Measure, spaces: bool) -> None:
    if not measure.params:
        return
    reordered = list(reversed(measure.params))
    sep = ", " if spaces else ","
    text = sep.join(f"{n}={_python(v)}" for n, v in reordered)
    at = "" if measure.k is None and not measure.metric.cutoff else f"@{measure.k or 'all'}"
    assert parse_measure(f"{measure.metric.name}({text}){at}", registry=BUILTINS) == [measure]


def _python(value: Any) -> str:
    if isinstance(value, tuple):
        return repr(dict(value))
    return repr(value)


@given(value=st.one_of(st.floats(allow_nan=False, allow_infinity=False), st.integers()))
def test_format_value_round_trips_numbers(value: float) -> None:
    text = format_value(float(value))
    assert float(text) == float(value) or math.isclose(float(text), float(value))


# --- errors -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("ndgc@10", r"unknown retrieval metric 'ndgc'; did you mean 'ndcg'( or [^?]+)?\?"),
        ("Ndcg@10", r"unknown retrieval metric 'Ndcg'; did you mean 'ndcg'"),
        ("set_p", r"did you mean 'set_P'"),
        (
            "meteor",
            r"unknown retrieval metric 'meteor'\. Valid retrieval metrics: binary_gain, bpref, "
            r".*ir_measures",
        ),
        ("token_f1", r"'token_f1' is a rag metric, not a retrieval metric"),
        (
            "P(rell=2)@5",
            r"metric 'precision' has no parameter 'rell'; did you mean 'rel'\? Its parameters: rel, judged_only",
        ),
        (
            "ndcg(p=0.8)@5",
            r"metric 'ndcg' has no parameter 'p'\. Its parameters: gains, dcg, judged_only, rel",
        ),
        (
            "hole(judged_only=True)@5",
            r"metric 'hole' has no parameter 'judged_only'\. Its parameters: none",
        ),
        (
            "P(rel='2')@5",
            r"\"P\(rel='2'\)@5\": precision's parameter 'rel' must be a number, "
            r"got '2'",
        ),
        ("P(rel=0)@5", r"parameter 'rel' must be > 0, got 0"),
        ("P(judged_only=1)@5", r"parameter 'judged_only' must be True or False, got 1"),
        ("RBP(p=1)", r"^'RBP\(p=1\)': rbp's parameter 'p' must lie strictly between 0 and 1"),
        ("f1(beta2=-1)", r"^'f1\(beta2=-1\)': f1's parameter 'beta2' must be 0 or more"),
        ("nDCG(dcg='exp')@5", r"parameter 'dcg' must be one of 'log2', 'exp-log2', got 'exp'"),
        ("nDCG(gains={1:'a'})@5", r"parameter 'gains' maps numbers to numbers"),
        ("nDCG(gains=[1])@5", r"parameter 'gains' must be a dict of numbers"),
        ("P(rel=2", r"unknown retrieval metric 'P\(rel=2'"),
        ("P(rel=)@5", r"cannot read the parameters 'rel='"),
        ("P(2)@5", r"parameters are name=value pairs"),
        ("P(rel=x)@5", r"the value of 'rel' must be a literal .* got 'x'"),
        ("ndcg@0", r"the cutoff after '@' must be a positive int or 'all', got '0'"),
        ("ndcg@", r"must be a positive int or 'all', got ''"),
        ("ndcg@23.4", r"must be a positive int"),
        ("ndcg@²", r"must be a positive int or 'all', got '²'"),  # not int()'s ValueError
        ("P.\u0665", r"trec_eval's cutoffs after the dot must be positive ints"),
        (
            "ndcg@99999999999999999999999",
            r"the cutoff 99999999999999999999999 is beyond the "
            r"largest, 9223372036854775807; name the metric with @all",
        ),
        ("P.5,9223372036854775808", r"'P.5,9223372036854775808': the cutoff 92233720368547758"),
        ("P.5,x", r"trec_eval's cutoffs after the dot must be positive ints"),
        ("ndcg.1", r"trec_eval's parameters are name=value pairs after the dot"),
        ("ndcg.1=x", r"'x' is not a number"),
        ("set_P.p=0.5", r"metric 'precision' has no parameter 'p'"),
        ("Rprec@10", r"ir_measures' Rprec takes no cutoff; write rprec@10"),
    ],
)
def test_bad_measure_strings_say_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_measure(spec, registry=BUILTINS)


#: Issue 25: a parameter outside its natural range gave a number with no word
#: (iprec_at_recall(recall=2) 0.0, rprec_mult(mult=-1) 0.0, err(max_grade=2000) 0.0).
OUT_OF_RANGE = [
    ("iprec_at_recall(recall=2)", "iprec_at_recall's parameter 'recall' must lie between 0 and 1"),
    ("iprec_at_recall(recall=-0.5)", "parameter 'recall' must lie between 0 and 1"),
    ("iprec_avg(recalls='0.5,2,-1')", "'recalls' holds recall levels between 0 and 1 "),
    ("rprec_mult(mult=0)", "rprec_mult's parameter 'mult' must be > 0"),
    ("rprec_mult(mult=-1)", "parameter 'mult' must be > 0"),
    ("rprec_mult(mult=1e300)", "parameter 'mult' must be > 0 (the depth is mult * R docs) and"),
    ("err(max_grade=2000)@10", "err's parameter 'max_grade' must be > 0 and below 1024"),
    ("err(max_grade=0)@10", "parameter 'max_grade' must be > 0"),
    ("rbp(p=1.5)", "rbp's parameter 'p' must lie strictly between 0 and 1"),
    ("f1(beta2=-1)@5", "f1's parameter 'beta2' must be 0 or more"),
    ("precision(rel=-1)@5", "precision's parameter 'rel' must be > 0"),
    ("utility(collection=-1)", "utility's parameter 'collection' must be 0 or more"),
]


@pytest.mark.parametrize(("spec", "message"), OUT_OF_RANGE)
def test_a_parameter_outside_its_range_is_refused_naming_measure_and_range(
    spec: str, message: str
) -> None:
    with pytest.raises(ValueError, match=f"^{re.escape(repr(spec))}: .*{re.escape(message)}"):
        parse_measure(spec, registry=BUILTINS)
    with pytest.raises(ValueError, match=re.escape(message)):
        evaluate_run({"q1": {"d1": 1.0}}, {"q1": {"d1": 1}}, metrics=[spec], registry=BUILTINS)


@pytest.mark.parametrize(
    ("spec", "key"),
    [
        ("iprec_at_recall(recall=1)", "iprec_at_recall(recall=1)"),
        ("iprec_at_recall(recall=0)", "iprec_at_recall"),
        ("iprec_avg(recalls='0,1')", "iprec_avg(recalls='0,1')"),
        ("rprec_mult(mult=1e-3)", "rprec_mult(mult=0.001)"),
        ("err(max_grade=1023)@10", "err(max_grade=1023)@10"),
    ],
)
def test_the_ends_of_each_range_are_taken(spec: str, key: str) -> None:
    assert [m.key for m in parse_measure(spec, registry=BUILTINS)] == [key]


def _numbers(metric: Any) -> list[MetricParam]:
    return [p for p in metric.params if p.type in (int, float)]


@pytest.mark.parametrize(
    ("name", "param"),
    [(m.name, p.name) for m in BUILTINS.retrieval_metrics.values() for p in _numbers(m)],
)
@pytest.mark.parametrize("value", ["1e999", "-1e999"])
def test_no_number_parameter_takes_a_value_that_is_no_finite_number(
    name: str, param: str, value: str
) -> None:
    metric = BUILTINS.retrieval_metric(name)
    at = "@5" if metric.cutoff else ""
    with pytest.raises(ValueError, match=f"{name}'s parameter '{param}' must be "):
        parse_measure(f"{name}({param}={value}){at}", registry=BUILTINS)
    for number in (math.nan, math.inf, -math.inf):
        with pytest.raises(ValueError, match=f"^parameter '{param}' must be "):
            metric.param(param).convert(number)


def test_the_largest_cutoff_is_int64s() -> None:
    (measure,) = parse_measure("P@9223372036854775807", registry=BUILTINS)
    assert measure.k == 2**63 - 1
    with pytest.raises(ValueError, match=r"k_values: 9223372036854775808 is beyond the largest"):
        parse_measure("ndcg", k_values=(2**63,), registry=BUILTINS)


def test_unknown_names_are_unknown_name_errors() -> None:
    with pytest.raises(UnknownNameError):
        parse_measure("ndgc@10", registry=BUILTINS)
    with pytest.raises(TypeError, match="a measure is a string"):
        parse_measure(10, registry=BUILTINS)  # type: ignore[arg-type]


# --- third-party metrics ----------------------------------------------------------------


def top_grade_at_k(ranked, relevant, k, *, floor=0.0, squash=False):
    """The highest grade in the top k, at least ``floor``."""
    best = max([relevant.get(d, 0.0) for d in ranked[:k]] + [floor])
    return min(best, 1.0) if squash else best


TOP = RetrievalMetric(
    name="top_grade",
    func=top_grade_at_k,
    params=(
        MetricParam("floor", float, 0.0, "the least value"),
        MetricParam("squash", bool, False, "cap at 1"),
    ),
    synonyms=(Synonym("ir_measures", "TopGrade"), Synonym("trec_eval", "top_grade_cut")),
)


def test_a_plugin_metric_takes_parameters_in_every_syntax() -> None:
    registry = registry_with(TOP, plugin="mine")
    assert [m.key for m in parse_measure("top_grade(floor=0.5)@3", registry=registry)] == [
        "top_grade(floor=0.5)@3"
    ]
    assert parse_measure("TopGrade(floor=0.5)@3", registry=registry) == parse_measure(
        "top_grade(floor=0.5)@3", registry=registry
    )
    assert [m.key for m in parse_measure("top_grade_cut.1,3", registry=registry)] == [
        "top_grade@1",
        "top_grade@3",
    ]
    report = evaluate_run(
        {"q": {"a": 2.0, "b": 1.0}},
        {"q": {"a": 0.25, "b": 3}},
        metrics=("top_grade(floor=0.5)@1", "top_grade@2", "top_grade(squash=True)@2"),
        registry=registry,
    )
    assert report.metrics == {
        "top_grade(floor=0.5)@1": 0.5,
        "top_grade@2": 3.0,
        "top_grade(squash=True)@2": 1.0,
    }
    with pytest.raises(UnknownNameError, match="did you mean 'floor'"):
        parse_measure("top_grade(flor=1)@3", registry=registry)


def test_two_plugins_cannot_claim_one_synonym() -> None:
    clash = RetrievalMetric(
        name="other", func=top_grade_at_k, synonyms=(Synonym("ir_measures", "P"),)
    )
    registry = registry_with(clash, plugin="mine")
    with pytest.raises(
        DuplicateNameError,
        match=r"the ir_measures name 'P' is claimed by 'other' \('mine'\) and 'precision'",
    ):
        parse_measure("ndcg@10", registry=registry)
    alias = RetrievalMetric(name="other", func=top_grade_at_k, aliases=("ndcg",))
    with pytest.raises(DuplicateNameError, match=r"name 'ndcg' is claimed by 'ndcg'"):
        parse_measure("ndcg@10", registry=registry_with(alias, plugin="mine"))


@pytest.mark.parametrize(
    "kwargs",
    [
        {"name": "alpha_ndcg"},  # ours
        {"name": "mine", "aliases": ("strec",)},  # ndeval's
        {"name": "mine", "synonyms": (Synonym("ir_measures", "NRBP"),)},  # ir_measures'
    ],
)
def test_a_plugins_metric_spelt_as_a_diversity_measure_is_refused(kwargs) -> None:
    # The name would mean two measures; refused, a measure string that names a metric is
    # never a diversity measure, which evaluate_run and the CLI tell without loading them.
    registry = registry_with(RetrievalMetric(func=top_grade_at_k, **kwargs), plugin="mine")
    with pytest.raises(DuplicateNameError, match=r"\('mine'\) is spelt '.+', as the diversity"):
        parse_measure("ndcg@10", registry=registry)


def test_no_built_in_metric_is_spelt_as_a_diversity_measure() -> None:
    from ef.evaluation import get_registry
    from ef.evaluation._engine.syntax import is_metric_name
    from ef.evaluation._engine.syntax.index import name_index
    from ef.evaluation.metrics.retrieval.diversity import DIVERSITY_NAMES

    index = name_index(get_registry())
    assert not (set(index.names) | set(index.ir_measures)) & set(DIVERSITY_NAMES)
    assert not any(is_metric_name(spelling, get_registry()) for spelling in DIVERSITY_NAMES)
    assert is_metric_name("ndcg@10", get_registry())


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"name": "Rel"}, ValueError, "name must match"),
        ({"name": "k"}, ValueError, "'k' cannot name a metric parameter"),
        ({"type": set}, TypeError, "type must be one of bool, int, float, str, dict, list"),
        ({"default": "x"}, ValueError, "parameter 'rel' must be a number"),
    ],
)
def test_metric_params_are_checked(kwargs, error, message) -> None:
    arguments = {"name": "rel", "type": float, "default": None, **kwargs}
    with pytest.raises(error, match=message):
        MetricParam(**arguments)


def test_retrieval_metric_checks_params_and_synonyms() -> None:
    rel = MetricParam("rel", float)
    with pytest.raises(ValueError, match="repeats a parameter"):
        RetrievalMetric(name="m", func=top_grade_at_k, params=(rel, rel))
    with pytest.raises(
        ValueError, match="synonym 'M' sets 'p', which is not one of its parameters"
    ):
        RetrievalMetric(
            name="m", func=top_grade_at_k, synonyms=(Synonym("ir_measures", "M", params={"p": 1}),)
        )
    with pytest.raises(ValueError, match="synonym 'M' requires 'p'"):
        RetrievalMetric(
            name="m", func=top_grade_at_k, synonyms=(Synonym("ir_measures", "M", requires=("p",)),)
        )
    with pytest.raises(ValueError, match="must be in"):
        Synonym("ranx", "ndcg")
    with pytest.raises(ValueError, match="a synonym's name is letters, digits or '_'"):
        Synonym("trec_eval", "P.5")
    with pytest.raises(ValueError, match=r"'aliases' must match regex .*\('Bad' doesn't\)"):
        RetrievalMetric(name="m", func=top_grade_at_k, aliases=("Bad",))
    with pytest.raises(ValueError, match="must be in"):
        RetrievalMetric(name="m", func=top_grade_at_k, aggregate="median")


@given(measure=measures())
def test_every_name_trec_eval_prints_parses_back(measure: Measure) -> None:
    from ef.evaluation._presentation.trec_names import trec_eval_name

    name = trec_eval_name(measure.key, BUILTINS)
    gains = dict(measure.params).get("gains", ())
    if name in BUILTINS.retrieval_metrics or any(not float(g).is_integer() for g, _ in gains):
        return  # a bare name of ours is ours (map, ndcg, rbp); trec_eval's grades are ints
    if name in (measure.key, measure.key.replace("@", "_")):
        return  # trec_eval has no name for it: ours is shown
    assert parse_measure(name, registry=BUILTINS) == [measure], name


def test_trec_eval_s_sets_expand_to_what_is_implemented() -> None:
    cut = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
    official = keys("official")
    recalls = ("", *(f"(recall={x / 10})" for x in range(1, 10)), "(recall=1)")
    assert official == [
        "num_ret", "num_rel", "num_rel_ret", "map@all", "gm_map", "rprec", "bpref", "mrr@all",
        *(f"iprec_at_recall{r}" for r in recalls), *(f"precision@{k}" for k in cut),
    ]  # fmt: skip
    all_trec = keys("all_trec")
    for key in ("ndcg@all", "infap", "success@1", "success@10", "map@1000", "ndcg@15", "f1@all"):
        assert key in all_trec
    assert trec_eval_set("official")[1] == ("runid",)
    assert trec_eval_set("all_trec")[1] == ("runid", "relstring")  # not numbers
    assert "num_q" not in trec_eval_set("all_trec")[1]  # every report counts its queries


@pytest.mark.parametrize(
    ("spec", "key"),
    [
        ("gm_map", "gm_map"),
        ("iprec_at_recall_0.10", "iprec_at_recall(recall=0.1)"),
        ("Rprec_mult_0.20", "rprec_mult(mult=0.2)"),
        ("Rndcg", "rndcg"),
        ("11pt_avg", "iprec_avg"),
        ("binG", "binary_gain"),
    ],
)
def test_trec_eval_s_other_measures_parse(spec: str, key: str) -> None:
    assert keys(spec) == [key]


@pytest.mark.parametrize(
    ("spec", "family"),
    [("relstring", "relstring"), ("yaap", "yaap"), ("map_avgjg", "map_avgjg")],
)
def test_trec_eval_measures_not_implemented_say_so(spec: str, family: str) -> None:
    with pytest.raises(UnknownNameError, match=f"trec_eval's {family}, which ef-evaluation does"):
        keys(spec)


def test_bare_names_trec_eval_reads_otherwise_are_described() -> None:
    note = trec_eval_differences(["map", "P", "ndcg@10", "recall@5"], (1, 10))
    assert note is not None
    assert note.startswith("bare map and P mean the metric at each cutoff of k_values (1,10)")
    assert "trec_eval's map is the whole ranking: write map@all" in note
    assert "trec_eval's P is cut at 5,10,15,20,30,100,200,500,1000" in note
    assert trec_eval_differences(["ndcg@10", "map@all", "P.5"], (1, 10)) is None
    assert trec_eval_differences(["recall"], (5, 10, 15, 20, 30, 100, 200, 500, 1000)) is None


def test_resolved_measures_are_reused_per_registry_and_still_checked() -> None:
    # resolve_measures keeps what it parsed on the registry: the same measures again, a
    # fresh list each time, another registry parsing for itself, and the checks of its
    # arguments made on every call.
    from ef.evaluation._engine.scoring import resolve_measures

    builtin = Registry.load(autoload=False)
    first = resolve_measures(["ndcg", "P@5"], (1, 10), builtin)
    assert [m.key for m in first] == ["ndcg@1", "ndcg@10", "precision@5"]
    first.clear()
    again = resolve_measures(iter(["ndcg", "P@5"]), [1, 10], builtin)
    assert [m.key for m in again] == ["ndcg@1", "ndcg@10", "precision@5"]
    with pytest.raises(UnknownNameError):
        resolve_measures(["top_grade@3"], (1,), builtin)
    mine = registry_with(TOP, plugin="mine")
    assert [m.key for m in resolve_measures(["top_grade@3"], (1,), mine)] == ["top_grade@3"]
    with pytest.raises(UnknownNameError):  # a failed parse is not kept either
        resolve_measures(["top_grade@3"], (1,), builtin)
    with pytest.raises(ValueError, match="k_values"):
        resolve_measures(["ndcg", "P@5"], (0,), builtin)
    with pytest.raises(TypeError, match="not a str"):
        resolve_measures("ndcg", (1, 10), builtin)
    with pytest.raises(TypeError, match="a measure is a string"):
        resolve_measures([["ndcg"]], (1, 10), builtin)  # type: ignore[list-item]
