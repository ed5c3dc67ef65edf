"""RBO_ext equals the rbo package's RankingSimilarity(...).rbo_ext(p)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ef.evaluation._engine.agreement import rbo_ext

from ..profiles_hypothesis import examples

pytestmark = pytest.mark.peers  # the rbo package, a peer implementation

rbo_package = pytest.importorskip(
    "rbo", reason="the rbo package is not installed (it pins numpy<2, so no extra carries it)"
)

rankings = st.lists(st.sampled_from("abcdefghijklmnop"), max_size=14, unique=True)


@settings(max_examples=examples(300), deadline=None)
@given(rankings, rankings, st.sampled_from([0.1, 0.5, 0.8, 0.9, 0.98]))
def test_rbo_ext_is_the_rbo_packages(a: list[str], b: list[str], p: float) -> None:
    theirs = rbo_package.RankingSimilarity(a, b).rbo_ext(p)
    assert rbo_ext(a, b, p) == pytest.approx(theirs, abs=1e-12)
