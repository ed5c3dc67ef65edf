"""save_report / load_report: every report comes back equal, NaN, None, manifest and ties too."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ef.evaluation import (
    ComparisonReport,
    DatasetFormatError,
    PairComparison,
    RagEvalReport,
    RetrievalEvalReport,
    TieDiagnostic,
    compare,
    evaluate_run,
    load_report,
    save_report,
)

from ..profiles_hypothesis import examples

# math.nan is one object: reports built with it compare equal to themselves (== on tuples and
# dicts tries identity first), so the loader must give NaN back where NaN was saved.
numbers = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    st.just(math.nan),
    st.just(math.inf),
    st.just(-math.inf),
)
maybe_numbers = st.one_of(st.none(), numbers)
ids = st.text(min_size=1, max_size=6)
keys = st.sampled_from(["ndcg@10", "recall@100", "precision@5", "map@all", "rprec"])
manifests = st.dictionaries(
    st.text(max_size=5),
    st.recursive(
        st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=5),
                  st.floats(allow_nan=False, allow_infinity=False)),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
        max_leaves=6,
    ),
    max_size=4,
)  # fmt: skip


@st.composite
def retrieval_reports(draw: st.DrawFn) -> RetrievalEvalReport:
    chosen = draw(st.lists(keys, unique=True, max_size=4))
    queries = draw(st.lists(ids, unique=True, max_size=4))
    return RetrievalEvalReport(
        metrics={k: draw(numbers) for k in chosen},
        per_query={q: {k: draw(numbers) for k in chosen} for q in queries},
        n_queries=len(queries),
        k_values=draw(st.lists(st.integers(1, 1000), unique=True, min_size=1, max_size=3)),
        skipped=draw(st.dictionaries(ids, st.text(max_size=8), max_size=2)),
        missing=draw(st.lists(ids, max_size=2)),
        extra=draw(st.lists(ids, max_size=2)),
        manifest=draw(manifests),
        ties=TieDiagnostic(
            policy=draw(st.sampled_from(["trec_eval", "expected"])),
            tied=draw(st.lists(ids, max_size=2)),
            at_cutoff=draw(st.lists(ids, max_size=2)),
        ),
    )


@st.composite
def rag_reports(draw: st.DrawFn) -> RagEvalReport:
    names = draw(
        st.lists(
            st.sampled_from(["token_f1", "exact_match", "context_recall"]), unique=True, max_size=3
        )
    )
    samples = draw(st.lists(ids, unique=True, max_size=4))
    return RagEvalReport(
        metrics={n: draw(maybe_numbers) for n in names},
        coverage={n: draw(st.integers(0, 4)) for n in names},
        n_samples=len(samples),
        per_sample={n: [draw(maybe_numbers) for _ in samples] for n in names},
        sample_ids=samples,
        manifest=draw(manifests),
    )  # fmt: skip


@st.composite
def comparison_reports(draw: st.DrawFn) -> ComparisonReport:
    systems = draw(st.lists(ids, unique=True, min_size=2, max_size=3))
    metrics = draw(st.lists(keys, unique=True, min_size=1, max_size=2))
    queries = draw(st.lists(ids, unique=True, max_size=3))
    pairs = [
        PairComparison(
            metric=m, a=systems[0], b=b, n=len(queries), mean_a=draw(numbers),
            mean_b=draw(numbers), difference=draw(numbers), ci_low=draw(numbers),
            ci_high=draw(numbers), p_value=draw(numbers), p_corrected=draw(numbers),
            reject=draw(st.booleans()), effect_size=draw(numbers), wins=draw(st.integers(0, 9)),
            ties=draw(st.integers(0, 9)), losses=draw(st.integers(0, 9)),
        )
        for m in metrics
        for b in systems[1:]
    ]  # fmt: skip
    return ComparisonReport(
        systems=systems,
        metrics=metrics,
        means={s: {m: draw(numbers) for m in metrics} for s in systems},
        comparisons=pairs,
        query_ids=queries,
        scores={s: {m: [draw(maybe_numbers) for _ in queries] for m in metrics} for s in systems},
        baseline=draw(st.none() | st.just(systems[0])),
        test=draw(st.sampled_from(["paired-t", "wilcoxon"])),
        correction=draw(st.sampled_from([None, "holm", "bh"])),
        alpha=draw(st.floats(0.001, 0.5)),
        seed=draw(st.none() | st.integers(0, 2**32)),
        kind=draw(st.sampled_from(["retrieval", "rag"])),
        missing={systems[0]: draw(st.lists(ids, max_size=2))},
        dropped=draw(st.lists(ids, max_size=2)),
        manifest=draw(manifests),
    )


def same(a: Any, b: Any) -> bool:
    """Equal, with NaN equal to NaN and None only equal to None, all the way down."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a):
        return math.isnan(b)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return a == b and (type(a) is type(b) or {type(a), type(b)} <= {int, float})


def _no_constant(token: str) -> Any:
    raise AssertionError(f"save_report wrote the bare {token}, which is not JSON")


def round_trip(report: Any, folder: Path) -> Any:
    path = save_report(report, folder / "report.json")
    # plain JSON: no NaN or Infinity tokens (which json.loads would take by default)
    json.loads(path.read_text(encoding="utf-8"), parse_constant=_no_constant)
    return load_report(path)


def nan_in_pairs(report: Any) -> bool:
    return isinstance(report, ComparisonReport) and any(
        isinstance(v, float) and math.isnan(v)
        for p in report.comparisons
        for v in p.to_dict().values()
    )


def check_equal(report: Any, loaded: Any) -> None:
    assert type(loaded) is type(report)
    # attrs compares a PairComparison field by field, so one holding NaN equals no other
    # object, itself excepted: there the NaN-aware comparison of the dicts below is the check.
    if not nan_in_pairs(report):
        assert loaded == report
    assert loaded.manifest == report.manifest
    assert same(loaded.to_dict(), report.to_dict())


@settings(max_examples=examples(60), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(report=st.one_of(retrieval_reports(), rag_reports(), comparison_reports()))
def test_every_report_round_trips(tmp_path: Path, report: Any) -> None:
    loaded = round_trip(report, tmp_path)
    check_equal(report, loaded)
    if isinstance(report, RetrievalEvalReport):
        assert loaded.ties == report.ties


def test_nan_is_null_and_rag_none_stays_none(tmp_path: Path) -> None:
    report = RagEvalReport(
        metrics={"token_f1": None, "exact_match": math.nan},
        coverage={"token_f1": 0, "exact_match": 1},
        n_samples=2,
        per_sample={"token_f1": [None, None], "exact_match": [math.nan, None]},
        sample_ids=["a", "b"],
    )
    path = save_report(report, tmp_path / "rag.json")
    body = json.loads(path.read_text(encoding="utf-8"))["report"]
    assert body["per_sample"] == {"token_f1": [None, None], "exact_match": ["NaN", None]}
    loaded = load_report(path)
    assert isinstance(loaded, RagEvalReport)
    assert loaded.metrics["token_f1"] is None
    assert math.isnan(loaded.metrics["exact_match"] or 0.0)
    assert loaded.per_sample["exact_match"][1] is None

    retrieval = RetrievalEvalReport({"ndcg@10": math.nan}, {"q": {"ndcg@10": math.nan}}, 1, (10,))
    path = save_report(retrieval, tmp_path / "retrieval.json")
    assert json.loads(path.read_text(encoding="utf-8"))["report"]["metrics"] == {"ndcg@10": None}
    again = load_report(path)
    assert isinstance(again, RetrievalEvalReport)
    assert math.isnan(again.per_query["q"]["ndcg@10"])


def test_a_real_evaluation_and_comparison_round_trip(tmp_path: Path) -> None:
    qrels = {"q1": {"d1": 1, "d2": 2}, "q2": {"d3": 1}, "q3": {"d4": 1}}
    one = evaluate_run(
        {"q1": ["d1", "d2"], "q2": ["d9", "d3"], "q3": ["d4"]}, qrels, k_values=(1, 3)
    )
    two = evaluate_run({"q1": ["d2", "d9"], "q2": ["d3"], "q3": ["d8"]}, qrels, k_values=(1, 3))
    assert one.manifest  # the manifest is what the loader must keep, beyond ==
    check_equal(one, round_trip(one, tmp_path))
    assert round_trip(one, tmp_path).ties == one.ties
    comparison = compare({"one": one, "two": two}, metrics=["ndcg@3"])
    check_equal(comparison, round_trip(comparison, tmp_path))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", r"line 1: not JSON"),
        ('{"kind": "retrieval"}', "not a saved ef-evaluation report"),
        ('{"format": "ef-evaluation-report", "version": 9, "kind": "rag"}', "version 9"),
        ('{"format": "ef-evaluation-report", "version": 1, "kind": "x"}', "unknown report kind 'x'"),
        ('{"format": "ef-evaluation-report", "version": 1, "kind": "retrieval", "report": {}}',
         "has no 'per_query'"),
        ('{"format": "ef-evaluation-report", "version": 1, "kind": "retrieval", "report": '
         '{"metrics": {"ndcg@10": "high"}, "per_query": {}, "n_queries": 0, "k_values": [10]}}',
         r"metrics\['ndcg@10'\]: expected a number, got 'high'"),
    ],
)  # fmt: skip
def test_a_file_that_is_not_a_saved_report_names_itself(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=message) as info:
        load_report(path)
    assert str(path) in str(info.value)


def test_a_missing_file_and_a_non_report(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        load_report(tmp_path / "absent.json")
    with pytest.raises(TypeError, match="got dict"):
        save_report({"ndcg@10": 0.5}, tmp_path / "x.json")  # type: ignore[arg-type]
    assert not list(tmp_path.iterdir())  # nothing half-written


SAVED = (
    '{"format": "ef-evaluation-report", "version": 1, "kind": "retrieval", "report": {\n'
    '"metrics": {"ndcg@10": %s},\n"per_query": {}, "n_queries": 0, "k_values": [10]}}\n'
)


@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity"])
def test_the_bare_tokens_that_json_has_not_are_refused_naming_the_file_and_line(
    tmp_path: Path, token: str
) -> None:
    path = tmp_path / "hand-written.json"
    path.write_text(SAVED % token, encoding="utf-8")
    with pytest.raises(DatasetFormatError) as info:
        load_report(path)
    message = str(info.value)
    assert message.startswith(f"{path}: line 2: the bare {token} is not JSON; save_report ")
    assert "\n" not in message
    # What save_report writes there instead loads: the string, or null for a NaN.
    path.write_text(SAVED % f'"{token}"', encoding="utf-8")
    loaded = load_report(path)
    assert isinstance(loaded, RetrievalEvalReport)
    assert (
        str(loaded.metrics["ndcg@10"])
        == {"NaN": "nan", "Infinity": "inf", "-Infinity": "-inf"}[token]
    )


def test_a_bare_token_inside_a_string_is_no_token(tmp_path: Path) -> None:
    report = RetrievalEvalReport({"ndcg@10": 0.5}, {"NaN": {"ndcg@10": 0.5}}, 1, (10,),
                                 manifest={"note": "Infinity, NaN"})  # fmt: skip
    check_equal(report, round_trip(report, tmp_path))


def test_a_file_that_is_not_utf8_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes((SAVED % "0.5").replace('"ndcg@10"', '"ndcg\u00e9"').encode("latin-1"))
    with pytest.raises(DatasetFormatError, match=r"line 2: not UTF-8 \(byte 0xe9") as info:
        load_report(path)
    assert str(info.value).startswith(f"{path}: ")


def _dead_pid() -> int:
    import subprocess
    import sys

    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_report_is_written_as_every_file_is(tmp_path: Path) -> None:
    """The mode a new file gets (not a temporary file's 0600), and a killed writer's
    temporary file removed by the next save, as the data writers do."""
    import os
    import stat

    report = RetrievalEvalReport({"ndcg@10": 0.5}, {"q1": {"ndcg@10": 0.5}}, 1, (10,))
    stale = tmp_path / f".run.json.ef-tmp-{_dead_pid()}-abc123"
    stale.write_text("half")
    path = save_report(report, tmp_path / "run.json")
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask
    assert [p.name for p in tmp_path.iterdir()] == ["run.json"]
    with pytest.raises(IsADirectoryError, match="is a directory; cannot write a file there"):
        save_report(report, tmp_path)
