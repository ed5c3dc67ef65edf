"""The fusion kernels and normalisations, by hand, one query at a time."""

from __future__ import annotations

import math

import pytest

from ef.evaluation import FusionMethod, FusionParam, UnknownNameError
from ef.evaluation._fusion import (
    BUILTIN,
    comb_anz,
    comb_max,
    comb_min,
    comb_mnz,
    comb_sum,
    inverse_square_rank,
    reciprocal_rank_fusion,
    weighted_sum,
)
from ef.evaluation._fusion.normalize import (
    EPSILON,
    check_norm,
    max_norm,
    min_max_norm,
    normalize,
    rank_norm,
    sum_norm,
    zmuv_norm,
)

# Run 1 retrieved a, b, c; run 2 retrieved b, d; run 3 retrieved nothing for this query.
RESULTS = [{"a": 0.9, "b": 0.4, "c": -0.2}, {"b": 0.8, "d": 0.1}, {}]
RANKINGS = [["a", "b", "c"], ["b", "d"], []]


def test_the_comb_methods_treat_a_missing_doc_as_ranx_does() -> None:
    assert comb_sum(RESULTS) == pytest.approx({"a": 0.9, "b": 1.2, "c": -0.2, "d": 0.1})
    # n(d), the runs that retrieved d, multiplies (MNZ) or divides (ANZ) the sum.
    assert comb_mnz(RESULTS) == pytest.approx({"a": 0.9, "b": 2.4, "c": -0.2, "d": 0.1})
    assert comb_anz(RESULTS) == pytest.approx({"a": 0.9, "b": 0.6, "c": -0.2, "d": 0.1})
    # A run that missed the doc takes no part: c keeps its negative score, not 0.
    assert comb_max(RESULTS) == {"a": 0.9, "b": 0.8, "c": -0.2, "d": 0.1}
    assert comb_min(RESULTS) == {"a": 0.9, "b": 0.4, "c": -0.2, "d": 0.1}


def test_weighted_sum_weighs_each_run() -> None:
    fused = weighted_sum(RESULTS, weights=(2.0, -1.0, 5.0))
    assert fused == pytest.approx({"a": 1.8, "b": 0.0, "c": -0.4, "d": -0.1})
    equal = weighted_sum(RESULTS)
    assert equal == pytest.approx({d: s / 3 for d, s in comb_sum(RESULTS).items()})
    with pytest.raises(ValueError, match="weights holds 2 numbers for 3 runs"):
        weighted_sum(RESULTS, weights=(1.0, 1.0))


def test_rrf_and_isr_read_the_ranks() -> None:
    fused = reciprocal_rank_fusion(RANKINGS, k=60)
    assert fused == pytest.approx(
        {"a": 1 / 61, "b": 1 / 62 + 1 / 61, "c": 1 / 63, "d": 1 / 62}, rel=0, abs=1e-15
    )
    assert reciprocal_rank_fusion(RANKINGS) == fused  # k = 60, Cormack et al.'s
    assert reciprocal_rank_fusion(RANKINGS, k=0) == pytest.approx(
        {"a": 1.0, "b": 1.5, "c": 1 / 3, "d": 0.5}
    )
    assert inverse_square_rank(RANKINGS) == pytest.approx(
        {"a": 1.0, "b": 2 * (1 / 4 + 1), "c": 1 / 9, "d": 1 / 4}
    )


def test_every_builtin_declares_formula_and_citation_and_lives_in_its_module() -> None:
    names = [method.name for method in BUILTIN]
    assert names == [
        *("rrf", "sum", "mnz", "max", "min", "anz", "wsum", "isr", "bordafuse", "w_bordafuse"),
        *("condorcet", "w_condorcet", "med", "wmnz", "gmnz", "log_isr", "logn_isr", "rbc"),
        *("mixed", "probfuse", "segfuse", "slidefuse", "bayesfuse", "mapfuse", "posfuse"),
    ]  # ranx 0.3.21's 25
    for method in BUILTIN:
        assert method.formula, method.name
        assert method.citation, method.name
        assert method.description, method.name
        home = method.func.__module__
        assert home.startswith("ef.evaluation._fusion."), home
        module = __import__(home, fromlist=["_"])
        assert any(value is method for value in vars(module).values()), home
    uses = {method.name: method.uses for method in BUILTIN}
    assert {name for name, used in uses.items() if used == "ranks"} == {
        *("rrf", "isr", "bordafuse", "w_bordafuse", "condorcet", "w_condorcet", "log_isr"),
        *("logn_isr", "rbc", "probfuse", "slidefuse", "bayesfuse", "mapfuse", "posfuse"),
    }
    supervised = {method.name for method in BUILTIN if method.train is not None}
    assert supervised == {"probfuse", "segfuse", "slidefuse", "bayesfuse", "mapfuse", "posfuse"}


def test_min_max() -> None:
    assert min_max_norm([5.0, 3.0, 1.0]) == [1.0, 0.5, 0.0]
    assert min_max_norm([-1.0, -3.0]) == [1.0, 0.0]
    assert min_max_norm([2.0]) == [0.0]  # one doc: no spread, it is the lowest (as ranx)
    assert min_max_norm([]) == []
    # A spread below 1e-9 is divided by 1e-9, as ranx guards it.
    assert min_max_norm([1.0 + 4e-10, 1.0]) == pytest.approx([0.4, 0.0], abs=1e-6)


def test_zmuv() -> None:
    scores = [4.0, 2.0, 1.0, 1.0]
    mean = 2.0
    std = math.sqrt(((4 - mean) ** 2 + 0 + 1 + 1) / 4)
    assert zmuv_norm(scores) == pytest.approx([(s - mean) / std for s in scores])
    assert zmuv_norm([1000.1, 1000.1, 1000.1]) == [0.0, 0.0, 0.0]
    assert zmuv_norm([]) == []


def test_sum_max_and_rank() -> None:
    assert sum_norm([4.0, 2.0, 1.0]) == pytest.approx([3 / 4, 1 / 4, 0.0])
    assert sum_norm([1.0, 1.0]) == [0.0, 0.0]
    assert max_norm([4.0, 1.0, 0.0]) == [1.0, 0.25, 0.0]
    assert max_norm([0.0, 0.0]) == [0.0, 0.0]
    assert max_norm([4e-10]) == pytest.approx([0.4])  # the top score below 1e-9: / 1e-9
    with pytest.raises(ValueError, match=r"norm='max' .* got -0.5"):
        max_norm([1.0, -0.5])
    assert rank_norm([3.0, 2.0, 1.0, 0.0, -5.0]) == pytest.approx([1.0, 0.8, 0.6, 0.4, 0.2])
    assert rank_norm([7.0, 1.0]) == [1.0, 0.5]
    assert EPSILON == 1e-9


@pytest.mark.parametrize("norm", ["min-max", "zmuv", "sum", "max"])
def test_scores_near_the_float_limit_normalise_as_small_ones(norm: str) -> None:
    # max - min, the sum and the squares of such scores overflow a float; the ratio each
    # normalisation is does not, and a power of two scales the scores exactly.
    scores = [3.0, 2.0, 1.5, 0.0] if norm == "max" else [3.0, 2.0, 1.5, -0.5, -3.0]
    for scale in (2.0**1022, 2.0**1000, 2.0**600):
        huge = [s * scale for s in scores]
        assert all(math.isfinite(s) for s in huge)
        assert normalize(huge, norm) == normalize(scores, norm), scale
    assert min_max_norm([1e308, -1e308]) == [1.0, 0.0]
    assert zmuv_norm([1e200, -1e200]) == [1.0, -1.0]


def test_the_norm_names_are_ranx_s() -> None:
    for norm in ("min-max", "zmuv", "sum", "max", "rank", None):
        assert check_norm(norm) == norm
    assert normalize([2.0, 1.0], None) == [2.0, 1.0]
    with pytest.raises(ValueError, match="did you mean 'min-max'"):
        check_norm("min_max")
    with pytest.raises(ValueError, match="norm must be None or one of"):
        normalize([1.0], "borda")


def test_fusion_param_converts_and_checks() -> None:
    k = FusionParam("k", int, 60, grid=range(10, 31, 10))
    assert k.grid == (10, 20, 30)
    assert k.convert(None, n_runs=2) == 60
    with pytest.raises(ValueError, match=r"parameter 'k' must be an int, got 1\.5"):
        k.convert(1.5, n_runs=2)
    with pytest.raises(ValueError, match="parameter 'k' must be an int, got True"):
        k.convert(True, n_runs=2)
    weights = FusionParam("weights", float, per_run=True)
    assert weights.convert((1, 2), n_runs=2) == (1.0, 2.0)
    assert weights.convert(None, n_runs=2) is None
    with pytest.raises(ValueError, match=r"one number per run, e\.g\."):
        weights.convert("0.5,0.5", n_runs=2)
    with pytest.raises(ValueError, match="must be a finite number, got nan"):
        weights.convert([float("nan"), 1.0], n_runs=2)
    with pytest.raises(ValueError, match="reserved"):
        FusionParam("results", float)
    with pytest.raises(TypeError, match="int or float"):
        FusionParam("mode", str)
    with pytest.raises(ValueError, match="a per-run parameter has no grid"):
        FusionParam("weights", float, per_run=True, grid=[0.5])


def test_fusion_method_validates() -> None:
    with pytest.raises(ValueError, match="FusionMethod: 'name' must match"):
        FusionMethod(name="Comb-Sum", func=comb_sum)
    with pytest.raises(ValueError, match=r"FusionMethod: 'uses' must be in \('scores', 'ranks'\)"):
        FusionMethod(name="x", func=comb_sum, uses="docs")
    with pytest.raises(ValueError, match="repeats a parameter"):
        FusionMethod(name="x", func=comb_sum, params=[FusionParam("k", int), FusionParam("k", int)])
    method = FusionMethod(name="x", func=comb_sum, params=[FusionParam("scale", float)])
    with pytest.raises(UnknownNameError, match="did you mean 'scale'"):
        method.param("scales")
