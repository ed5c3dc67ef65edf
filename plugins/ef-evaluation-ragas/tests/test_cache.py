"""The LLM step, cached and costed: a second identical run makes no call, a dry run makes
none and says what would be made, and the manifest counts calls, tokens and cache hits.

Every number here is checked against what the fake judge itself counted.
"""

from __future__ import annotations

import doctest
import io
import sqlite3
import warnings
from pathlib import Path
from typing import Any

import pytest
from ef_evaluation_ragas import LLMPlan, _judge, cache, evaluate_with_ragas, judged
from ef_evaluation_ragas.cache import VerdictCache, verdict_key
from hypothesis import given
from hypothesis import strategies as st

from .fake_llm import FakeInstructorJudge, FakeJudge

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from ragas.metrics import AspectCritic, Faithfulness

SAMPLES: list[dict[str, Any]] = [
    {"id": "good", "user_input": "Capital of France?", "response": "Paris is the capital of France.",
     "retrieved_contexts": ["Paris is the capital of France. It is large."]},
    {"id": "half", "user_input": "Capital of France?",
     "response": "Paris is the capital of France. Paris has ten million cats.",
     "retrieved_contexts": ["Paris is the capital of France."]},
    {"id": "bad", "user_input": "Capital of France?", "response": "Lyon.",
     "retrieved_contexts": ["Paris is the capital of France."]},
]  # fmt: skip


def critic() -> Any:
    return AspectCritic(name="names_paris", definition="Does the response name Paris?")


def words(text: str) -> int:
    return len(text.split())


def test_a_second_identical_run_makes_no_llm_call(tmp_path: Path) -> None:
    path = tmp_path / "v.sqlite3"
    first_judge, second_judge = FakeJudge(), FakeJudge()
    first = evaluate_with_ragas(SAMPLES, [critic(), Faithfulness()], llm=first_judge, cache=path)
    second = evaluate_with_ragas(SAMPLES, [critic(), Faithfulness()], llm=second_judge, cache=path)

    assert first_judge.calls > 0
    assert second_judge.calls == 0
    assert second_judge.prompts == []
    assert second.per_sample == first.per_sample
    llm_1, llm_2 = first.manifest["llm"], second.manifest["llm"]
    # The manifest counts what the judge counted: calls and the tokens it reported.
    assert llm_1["calls"] == first_judge.calls
    assert llm_1["prompt_tokens"] == first_judge.prompt_tokens
    assert llm_1["completion_tokens"] == first_judge.completion_tokens
    assert llm_1["cache_hits"] == 0
    assert llm_1["tokens_estimated_calls"] == 0
    assert (llm_2["calls"], llm_2["prompt_tokens"], llm_2["cache_hits"]) == (
        0,
        0,
        first_judge.calls,
    )
    assert llm_1["cache"] == llm_2["cache"] == str(path)
    assert list(llm_1["models"]) == ["fake-judge"]
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*) FROM verdicts").fetchone() == (first_judge.calls,)
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_the_default_location_is_the_environment_variable_and_cache_false_is_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "elsewhere" / "verdicts.sqlite3"
    monkeypatch.setenv(cache.CACHE_ENV, str(path))
    judge = FakeJudge()
    report = evaluate_with_ragas(SAMPLES, [critic()], llm=judge)
    assert report.manifest["llm"]["cache"] == str(path)
    assert len(VerdictCache(path)) == judge.calls == 3

    off = [FakeJudge(), FakeJudge()]
    reports = [evaluate_with_ragas(SAMPLES, [critic()], llm=j, cache=False) for j in off]
    assert [j.calls for j in off] == [3, 3]  # nothing cached, nothing read
    assert reports[1].manifest["llm"]["cache"] is None
    assert reports[1].manifest["llm"]["cache_hits"] == 0


def test_the_key_holds_the_model_and_the_sample(tmp_path: Path) -> None:
    path = tmp_path / "v.sqlite3"
    evaluate_with_ragas(SAMPLES, [critic()], llm=FakeJudge(), cache=path)
    other_model = FakeJudge(model_name="fake-judge-2")
    evaluate_with_ragas(SAMPLES, [critic()], llm=other_model, cache=path)
    assert other_model.calls == 3  # one model's verdicts never answer for another

    changed = [SAMPLES[0], {**SAMPLES[1], "response": "Paris, for sure."}, SAMPLES[2]]
    judge = FakeJudge()
    report = evaluate_with_ragas(changed, [critic()], llm=judge, cache=path)
    assert judge.calls == 1  # only the changed sample is asked again
    assert report.manifest["llm"]["cache_hits"] == 2


def test_tokens_are_estimated_when_the_llm_reports_none() -> None:
    judge = FakeJudge(report_usage=False)
    report = evaluate_with_ragas(SAMPLES, [critic()], llm=judge, count_tokens=words)
    llm = report.manifest["llm"]
    assert llm["tokens_estimated_calls"] == llm["calls"] == 3
    assert llm["prompt_tokens"] == sum(words(p) for p in judge.prompts)
    assert llm["token_estimate"] == "count_tokens"
    default = evaluate_with_ragas(
        SAMPLES, [critic()], llm=FakeJudge(report_usage=False), cache=False
    )
    assert default.manifest["llm"]["prompt_tokens"] == sum(
        _judge.estimate_tokens(p) for p in judge.prompts
    )
    assert default.manifest["llm"]["token_estimate"] == "ceil(chars / 4)"


def test_a_dry_run_prints_the_calls_and_makes_none() -> None:
    judge = FakeJudge()
    out = io.StringIO()
    plan = evaluate_with_ragas(
        SAMPLES, [critic()], llm=judge, dry_run=True, out=out, count_tokens=words
    )
    assert isinstance(plan, LLMPlan)
    assert judge.calls == 0
    assert judge.prompts == []
    assert [(c.sample_id, c.metric) for c in plan.calls] == [
        ("good", "names_paris"), ("half", "names_paris"), ("bad", "names_paris")
    ]  # fmt: skip
    printed = out.getvalue()
    assert printed == str(plan) + "\n"
    assert "Calls to make: 3" in printed
    assert f"Estimated prompt tokens: {plan.prompt_tokens}" in printed

    # The estimates are those of the prompts the real run then sends (one step per sample).
    evaluate_with_ragas(SAMPLES, [critic()], llm=judge)
    assert sorted(c.prompt_tokens for c in plan.calls) == sorted(words(p) for p in judge.prompts)

    # Once everything is cached, a dry run plans nothing and finds every answer.
    again = evaluate_with_ragas(SAMPLES, [critic()], llm=FakeJudge(), dry_run=True, out=out)
    assert again.calls == ()
    assert again.cache_hits == 3


def test_a_dry_run_of_a_metric_in_steps_plans_its_first_step_then_the_next() -> None:
    plan = evaluate_with_ragas(
        SAMPLES, [Faithfulness()], llm=FakeJudge(), dry_run=True, out=io.StringIO()
    )
    assert len(plan.calls) == 3  # statements first; the verdict prompts need their answers
    judge = FakeJudge()
    evaluate_with_ragas(SAMPLES[:1], [Faithfulness()], llm=judge)
    assert judge.calls == 2
    # With the first sample's statements cached, its next step is what the plan shows.
    after = evaluate_with_ragas(
        SAMPLES, [Faithfulness()], llm=FakeJudge(), dry_run=True, out=io.StringIO()
    )
    assert [c.sample_id for c in after.calls] == ["half", "bad"]
    assert after.cache_hits == 2


def test_a_metrics_own_llm_is_judged_the_same_way_and_put_back() -> None:
    own = FakeJudge(model_name="own-judge")
    metric = critic()
    metric.llm = own
    report = evaluate_with_ragas(SAMPLES, [metric, Faithfulness()], llm=FakeJudge())
    assert metric.llm is own
    assert "single_turn_ascore" not in vars(metric)
    assert list(report.manifest["llm"]["models"]) == ["own-judge", "fake-judge"]
    assert own.calls == 3
    evaluate_with_ragas(SAMPLES, [metric], llm=FakeJudge())
    assert own.calls == 3


def test_a_judge_of_unknown_model_needs_model_id_when_cached() -> None:
    judge = FakeJudge(model_name="")
    with pytest.raises(
        ValueError, match=r"cannot tell the model of llm \(FakeJudge\): pass model_id="
    ):
        evaluate_with_ragas(SAMPLES, [critic()], llm=judge)
    report = evaluate_with_ragas(SAMPLES, [critic()], llm=judge, model_id="local-7b")
    assert list(report.manifest["llm"]["models"]) == ["local-7b"]
    assert evaluate_with_ragas(SAMPLES, [critic()], llm=judge, cache=False).to_dict()["manifest"][
        "llm"
    ]["models"] == ["FakeJudge"]


def test_failed_calls_are_not_cached() -> None:
    from ragas.run_config import RunConfig

    down = FakeJudge(fail_with=TimeoutError("slow"))
    report = evaluate_with_ragas(
        SAMPLES,
        [critic()],
        llm=down,
        on_error="skip",
        run_config=RunConfig(max_retries=1, max_wait=0),
    )
    assert report.manifest["llm"]["calls"] == 0
    judge = FakeJudge()
    evaluate_with_ragas(SAMPLES, [critic()], llm=judge)
    assert judge.calls == 3


texts = st.text(max_size=8)
requests = st.fixed_dictionaries(
    {"prompt": texts, "model": texts, "sample": st.dictionaries(texts, texts, max_size=3),
     "n": st.integers(1, 3), "temperature": st.one_of(st.none(), st.floats(0, 1)),
     "stop": st.one_of(st.none(), st.lists(texts, max_size=2))}
)  # fmt: skip


@given(a=requests, b=requests)
def test_two_requests_share_a_key_exactly_when_they_are_equal(
    a: dict[str, Any], b: dict[str, Any]
) -> None:
    def key(r: dict[str, Any]) -> str:
        return verdict_key(
            r["prompt"],
            r["model"],
            r["sample"],
            n=r["n"],
            temperature=r["temperature"],
            stop=r["stop"],
        )

    assert (key(a) == key(b)) == (a == b)
    reordered = {**a, "sample": dict(reversed(list(a["sample"].items())))}
    assert key(reordered) == key(a)


def test_two_handles_on_one_file_see_each_others_writes(tmp_path: Path) -> None:
    one, two = VerdictCache(tmp_path / "v.sqlite3"), VerdictCache(tmp_path / "v.sqlite3")
    one.put("k", "m", cache.CachedAnswer([["a", "b"]], 5, 2))
    assert two.get("k") == cache.CachedAnswer([["a", "b"]], 5, 2)
    one.close()
    two.close()


@pytest.mark.parametrize("module", [cache, _judge, judged])
def test_the_docstring_examples_run(module: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(cache.CACHE_ENV, raising=False)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0


def test_an_instructor_judge_is_cached_and_counted_too() -> None:
    first, second = FakeInstructorJudge(), FakeInstructorJudge()
    report = evaluate_with_ragas(SAMPLES, [critic()], llm=first, count_tokens=words)
    assert report.per_sample["names_paris"] == (1.0, 1.0, 0.0)
    llm = report.manifest["llm"]
    assert llm["calls"] == len(first.rules.prompts) == 3
    assert llm["tokens_estimated_calls"] == 3  # Instructor reports no usage
    assert llm["prompt_tokens"] == sum(words(p) for p in first.rules.prompts)
    again = evaluate_with_ragas(SAMPLES, [critic()], llm=second)
    assert second.rules.prompts == []
    assert again.per_sample == report.per_sample
    assert again.manifest["llm"]["cache_hits"] == 3
