"""nugget_all and nugget_vital against castorini's nuggetizer, live:
``nuggetizer.core.metrics.calculate_nugget_scores(qid, nuggets)`` on the same assignments.

nuggetizer scores a list of nuggets that carry ``importance`` and ``assignment``, the shape
of the TREC RAG track's assignment files and of ef's ``nuggets`` key, so both sides read the
same list. It has no Weighted score (test_nuggets.py checks that one against the paper's
formula). Its package imports openai, so the test is in the peers group.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ef.evaluation import evaluate_rag

pytestmark = pytest.mark.peers

nuggetizer_metrics = pytest.importorskip("nuggetizer.core.metrics")

_NUGGET = st.fixed_dictionaries(
    {
        "text": st.text(max_size=8),
        "importance": st.sampled_from(["vital", "okay"]),
        "assignment": st.sampled_from(["support", "partial_support", "not_support"]),
    }
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(_NUGGET, max_size=25), min_size=1, max_size=6))
def test_all_and_vital_equal_calculate_nugget_scores(answers: list[list[dict[str, Any]]]) -> None:
    samples = [{"id": f"q{i}", "nuggets": nuggets} for i, nuggets in enumerate(answers)]
    metrics = ["nugget_all", "nugget_all(strict=True)", "nugget_vital", "nugget_vital(strict=True)"]
    report = evaluate_rag(samples, metrics=metrics)
    for i, nuggets in enumerate(answers):
        theirs = nuggetizer_metrics.calculate_nugget_scores(f"q{i}", nuggets)
        assert report.per_sample["nugget_all"][i] == theirs.all_score
        assert report.per_sample["nugget_all(strict=True)"][i] == theirs.strict_all_score
        assert report.per_sample["nugget_vital"][i] == theirs.vital_score
        assert report.per_sample["nugget_vital(strict=True)"][i] == theirs.strict_vital_score
    # the run's means, as nuggetizer's calculate_global_metrics takes them
    overall = nuggetizer_metrics.calculate_global_metrics(
        [{"qid": f"q{i}", "nuggets": nuggets} for i, nuggets in enumerate(answers)]
    )
    assert report.metrics["nugget_all"] == pytest.approx(overall["all_score"], abs=1e-15)
    assert report.metrics["nugget_vital(strict=True)"] == pytest.approx(
        overall["strict_vital_score"], abs=1e-15
    )
