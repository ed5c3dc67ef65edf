"""compare(test="tukey") decides as ranx.compare(..., stat_test="tukey") on the same runs."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest

from ef.evaluation import compare

from ..compare.test_compare import QRELS, RUNS

pytestmark = pytest.mark.peers  # ranx, with its numba JIT

ranx = pytest.importorskip("ranx")


@pytest.fixture(autouse=True)
def _quiet_numba() -> Iterator[None]:
    from numba.core.errors import NumbaTypeSafetyWarning

    with warnings.catch_warnings():
        # numba's JIT warns about ranx's uint64 -> int64 hash cast while compiling.
        warnings.simplefilter("ignore", NumbaTypeSafetyWarning)
        yield


@pytest.mark.parametrize("alpha", [0.01, 0.05, 0.3])
def test_tukey_decisions_and_p_values_equal_ranx(alpha: float) -> None:
    metrics = ["ndcg@10", "mrr@10"]
    qrels = ranx.Qrels({q: dict(judged) for q, judged in QRELS.items()})
    runs = [ranx.Run(run, name=name) for name, run in RUNS.items()]
    theirs = ranx.compare(qrels, runs, metrics=metrics, stat_test="tukey", max_p=alpha)
    ours = compare(RUNS, QRELS, metrics=metrics, test="tukey", alpha=alpha)
    decided = []
    for pair in ours.comparisons:
        found = theirs.comparisons[pair.a, pair.b][pair.metric]
        assert pair.p_value == pytest.approx(found["p_value"], rel=1e-9, abs=1e-12)
        assert pair.reject == found["significant"]
        decided.append(pair.reject)
    if alpha == 0.05:  # the runs make both decisions: the equality above says something
        assert any(decided)
        assert not all(decided)
