"""A run and qrels passed the wrong way round, told from every signal of shape (issue 25).

The check used to need fractional scores: a run scored by rank, by rounded BM25 or by an
integer label passed as the qrels scored a plausible number. Now the values (their spread,
sign and whole-ness), the docs per query, which side holds the other's docs and, for
mappings, the values' types are weighed; see :mod:`ef.evaluation._evaluate.swapped`.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ef.evaluation import InputWarning, RunTable, evaluate_run, read_qrels, read_run
from ef.evaluation._evaluate.swapped import swap_verdict

from .conftest import shared_path
from .profiles_hypothesis import examples

# The issue's example: every "score" and "grade" is a small whole number.
SMALL_RUN = {"q1": {"d1": 2.0, "d2": 1.0}, "q2": {"d3": 1.0}}
SMALL_QRELS = {"q1": {"d2": 1}, "q2": {"d3": 2}}


def by_rank(depth: int, queries: int = 3, *, as_float: bool = False) -> dict[str, dict[str, Any]]:
    """A run scored by rank: ``depth`` docs per query scored ``depth`` down to 1."""
    return {
        f"q{q}": {f"d{q}-{i}": float(depth - i) if as_float else depth - i for i in range(depth)}
        for q in range(queries)
    }


def judged(queries: int = 3) -> dict[str, dict[str, int]]:
    """Three judgements per query, of docs the run above retrieves, graded 0 to 2."""
    return {f"q{q}": {f"d{q}-3": 2, f"d{q}-10": 1, f"d{q}-40": 0} for q in range(queries)}


def scored(run: object, qrels: object, **options: Any) -> float:
    """ndcg@10, failing on any warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        report = evaluate_run(run, qrels, metrics=("ndcg@10",), **options)  # type: ignore[arg-type]
    return float(report.metrics["ndcg@10"])


def frame(pairs: dict[str, dict[str, Any]]) -> pd.DataFrame:
    rows = [(q, d, v) for q, docs in pairs.items() for d, v in docs.items()]
    return pd.DataFrame(rows, columns=["q_id", "doc_id", "score"])


def test_the_small_example_of_the_issue_warns() -> None:
    assert f"{scored(SMALL_RUN, SMALL_QRELS):.4f}" == "0.8155"
    with pytest.warns(InputWarning, match="run and qrels may be swapped") as caught:
        report = evaluate_run(SMALL_QRELS, SMALL_RUN, metrics=("ndcg@10",))
    assert f"{report.metrics['ndcg@10']:.4f}" == "0.6900"  # scored as given, but said
    message = str(caught[0].message)
    for part in (
        "the qrels argument holds 1.5 docs per query, the run argument 1",
        "the qrels argument holds 100% of the run argument's docs",
        "the run argument's values are ints, the qrels argument's floats",
        "evaluate_run(run, qrels)",
        "evaluate_run(run=..., qrels=...)",
        "QRELS RUN",
        "check_swapped=False",
    ):
        assert part in message
    assert caught[0].filename == __file__  # it points at the call


def test_check_swapped_false_silences_the_warning() -> None:
    assert f"{scored(SMALL_QRELS, SMALL_RUN, check_swapped=False):.4f}" == "0.6900"


@pytest.mark.parametrize("as_float", [False, True])
def test_a_run_scored_by_rank_given_as_the_qrels_is_refused(as_float: bool) -> None:
    run = by_rank(100, as_float=as_float)
    right = scored(run, judged())
    with pytest.raises(ValueError, match="run and qrels look swapped") as caught:
        evaluate_run(judged(), run)
    message = str(caught.value)
    for part in (
        "the qrels argument holds scores (100 different numbers from 1 to 100)",
        "the run argument grades (whole numbers from 0 to 2)",
        "the qrels argument holds 100 docs per query, the run argument 3",
        "the qrels argument holds 100% of the run argument's docs",
        "evaluate_run(run=..., qrels=...)",
        "ef-eval evaluate takes QRELS RUN",
        "pass check_swapped=False (ef-eval evaluate --no-check-swapped) to score them as given",
    ):
        assert part in message
    assert scored(judged(), run, check_swapped=False) != right  # the way out scores as given


def test_swapped_tables_scored_by_rank_are_refused() -> None:
    run, qrels = frame(by_rank(100)), frame(judged())
    assert scored(run, qrels) > 0
    with pytest.raises(ValueError, match="run and qrels look swapped"):
        evaluate_run(qrels, run)
    with pytest.raises(ValueError, match="run and qrels look swapped"):
        evaluate_run(RunTable.from_dict(judged()), by_rank(100))


@pytest.mark.parametrize(
    ("scores", "shown"),
    [
        (lambda i: round(40 - i * 0.3), "different numbers from"),  # rounded BM25
        (lambda i: -i - 1, "values down to -100"),  # negative whole scores
        (lambda i: 25 - i // 10, "values up to 25"),  # ten kinds of whole scores, above 10
    ],
)
def test_whole_scores_of_every_kind_given_as_the_qrels_are_refused(scores: Any, shown: str) -> None:
    run = {q: {d: scores(i) for i, d in enumerate(docs)} for q, docs in by_rank(100).items()}
    scored(run, judged())
    with pytest.raises(ValueError, match="run and qrels look swapped") as caught:
        evaluate_run(judged(), run)
    assert shown in str(caught.value)


def test_grades_in_the_run_and_scores_in_the_qrels_only_warn_when_the_docs_disagree() -> None:
    # A classifier's labels (0, 1, 2) for 50 docs per query, against fractional grades of two
    # docs per query: the values look swapped, the docs per query do not.
    labels = {f"q{q}": {f"d{i}": i % 3 for i in range(50)} for q in range(3)}
    fractions = {f"q{q}": {"d1": 0.5, "d2": 0.25} for q in range(3)}
    with pytest.warns(InputWarning, match="may be swapped") as caught:
        evaluate_run(labels, fractions, metrics=("ndcg@10",))
    message = str(caught[0].message)
    assert "the qrels argument holds scores (fractions, e.g. qrels['q0']['d1'] = 0.5)" in message
    assert "; but the run argument holds 50 docs per query, the qrels argument 2" in message


def test_the_former_fractional_case_still_names_the_value() -> None:
    run = {"q1": {"d1": 0.9, "d2": 0.4}, "q2": {"d3": 0.7, "d5": 0.2}, "q3": {"d4": 0.1}}
    qrels = {"q1": {"d1": 1, "d2": 0}, "q2": {"d3": 2}, "q3": {"d4": 1}}
    with pytest.raises(ValueError, match=r"qrels\['q1'\]\['d1'\] = 0\.9"):
        evaluate_run(qrels, run)


@pytest.mark.parametrize(
    ("run", "qrels"),
    [
        # Graded qrels, and a run with whole scores that holds more docs per query.
        (by_rank(30), judged()),
        ({q: {d: i % 3 for i, d in enumerate(docs)} for q, docs in by_rank(30).items()}, judged()),
        # Pooled qrels (more judgements than the run retrieves) and a shallow run.
        (
            by_rank(5, as_float=True),
            {f"q{q}": {f"d{q}-{i}": i % 4 for i in range(200)} for q in range(3)},
        ),
        ({"q1": {"d1": 0.9}}, {"q1": {"d1": 1, "d2": 0, "d3": 1}}),
        # Hand-written examples of the docs: whole scores, as many docs as judgements.
        ({"q1": {"d1": 3, "d2": 2}, "q2": {"d3": 1}}, {"q1": {"d1": 1, "d2": 0}, "q2": {"d3": 2}}),
        ({"q1": {"d1": 1}}, {"q1": {"d1": 1, "d2": 1}}),
    ],
)
def test_no_false_alarm_on_runs_with_whole_scores(run: Any, qrels: Any) -> None:
    assert swap_verdict(run, qrels) is None
    scored(run, qrels)


def test_ranked_lists_are_never_taken_for_qrels() -> None:
    assert swap_verdict({"q1": ["d1", "d2"]}, {"q1": {"d1": 1.5, "d2": 2.5}}) is None


# The real collections, the right way round: neither a refusal nor a warning.


@pytest.fixture(scope="module")
def cacm() -> tuple[dict[str, dict[str, float]], dict[str, dict[str, float]]]:
    folder = shared_path("datasets", "cacm")
    return (
        {q: dict(d) for q, d in read_run(folder / "run.cacm-bm25.txt").items()},
        {q: dict(d) for q, d in read_qrels(folder / "qrels.cacm.txt").items()},
    )


def test_cacm_as_dicts_and_tables_gives_no_alarm(cacm) -> None:
    run, qrels = cacm
    assert f"{scored(run, qrels):.4f}" == f"{scored(frame(run), frame(qrels)):.4f}"
    scored(RunTable.from_dict(run), qrels)


def test_scifact_bm25_as_a_dict_gives_no_alarm() -> None:
    run = read_run(
        shared_path("datasets", "scifact-runs")
        / "run.scifact.test.bm25s-lucene-k1_1.2-b_0.75.txt.gz"
    )
    qrels = read_qrels(shared_path("datasets", "scifact", "qrels", "test.tsv"))
    as_dicts = {q: dict(d) for q, d in run.items()}
    scored(as_dicts, {q: dict(d) for q, d in qrels.items()})
    with pytest.raises(ValueError, match="run and qrels look swapped"):
        evaluate_run({q: dict(d) for q, d in qrels.items()}, as_dicts)


def deeper(qrels: dict[str, dict[str, float]], depth: int) -> dict[str, dict[str, float]]:
    """A run of ``depth`` docs per query, BM25-like scores, whose top half starts with the
    judged docs."""
    run = {}
    for q, grades in qrels.items():
        docs = list(
            dict.fromkeys([*list(grades)[: depth // 2], *(f"{q}-x{i}" for i in range(depth))])
        )
        run[q] = {d: 30.0 - 0.0271 * i for i, d in enumerate(docs[:depth])}
    return run


@pytest.mark.parametrize(
    ("path", "depth"),
    [
        (("msmarco-passage", "qrels.msmarco-passage.dev-subset.txt"), 1000),
        (("trec-dl", "qrels.dl19-passage.txt"), 100),  # pooled: more judgements than docs
        (("trec-dl", "qrels.dl20-passage.txt"), 1000),
    ],
)
def test_msmarco_and_trec_dl_qrels_give_no_alarm(path: tuple[str, str], depth: int) -> None:
    qrels = {q: dict(d) for q, d in read_qrels(shared_path("datasets", *path)).items()}
    if len(qrels) > 300:
        qrels = dict(list(qrels.items())[:300])
    for run in (
        deeper(qrels, depth),
        {q: {d: depth - i for i, d in enumerate(docs)} for q, docs in deeper(qrels, depth).items()},
    ):
        scored(run, qrels)
        scored(frame(run), frame(qrels))


# Property: realistic pairs. The right order is never doubted; a run scored by rank passed as
# the qrels is always refused.


KINDS = ("floats", "rank", "rounded", "labels", "negative")


def values_of(draw: st.DrawFn, kind: str, depth: int) -> list[Any]:
    """``depth`` scores of a run of ``kind``: floats, by rank, or whole numbers in a range."""
    if kind == "floats":
        floats = st.floats(-50, 50, allow_nan=False)
        return draw(st.lists(floats, min_size=depth, max_size=depth))
    if kind == "rank":
        return list(range(depth, 0, -1))
    low, high = {"rounded": (0, 40), "labels": (0, 2), "negative": (-30, 0)}[kind]
    return draw(st.lists(st.integers(low, high), min_size=depth, max_size=depth))


@st.composite
def pairs(
    draw: st.DrawFn, kinds: tuple[str, ...] = KINDS, depths: tuple[int, int] = (20, 150)
) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, int]]]:
    """A run (``depths`` docs per query) and its qrels: 1 to 10 judgements per query, graded
    -2 to 4 (one relevant at least), at least half of them of docs the run retrieves."""
    kind = draw(st.sampled_from(kinds))
    run: dict[str, dict[str, Any]] = {}
    qrels: dict[str, dict[str, int]] = {}
    for q in range(draw(st.integers(1, 6))):
        docs = [f"q{q}-d{i}" for i in range(draw(st.integers(*depths)))]
        run[f"q{q}"] = dict(zip(docs, values_of(draw, kind, len(docs)), strict=True))
        n = draw(st.integers(1, 10))
        inside = draw(
            st.lists(st.sampled_from(docs), min_size=math.ceil(n / 2), max_size=n, unique=True)
        )
        judged_docs = inside + [f"q{q}-unretrieved{i}" for i in range(n - len(inside))]
        grades = draw(st.lists(st.integers(-2, 4), min_size=n, max_size=n))
        grades[0] = max(grades[0], 1)
        qrels[f"q{q}"] = dict(zip(judged_docs, grades, strict=True))
    return run, qrels


@settings(max_examples=examples(200))
@given(pairs())
def test_realistic_pairs_the_right_way_round_give_no_alarm(
    pair: tuple[dict[str, dict[str, Any]], dict[str, dict[str, int]]],
) -> None:
    run, qrels = pair
    assert swap_verdict(run, qrels) is None
    scored(run, qrels)  # neither an error nor a warning
    scored(frame(run), frame(qrels))


@settings(max_examples=examples(100))
@given(pairs(kinds=("rank",), depths=(100, 300)))
def test_a_run_scored_by_rank_given_as_the_qrels_is_always_refused(
    pair: tuple[dict[str, dict[str, Any]], dict[str, dict[str, int]]],
) -> None:
    run, qrels = pair
    with pytest.raises(ValueError, match="run and qrels look swapped"):
        evaluate_run(qrels, run)
    with pytest.raises(ValueError, match="run and qrels look swapped"):
        evaluate_run(frame(qrels), frame(run))


def test_the_cli_refuses_swapped_parquet_files_and_scores_them_when_told(tmp_path) -> None:
    from click.testing import CliRunner

    from ef.evaluation.cli import cli

    run, qrels = tmp_path / "run.parquet", tmp_path / "qrels.parquet"
    import polars as pl

    pl.DataFrame(frame(by_rank(100)).to_dict("list")).write_parquet(run)
    pl.DataFrame(frame(judged()).to_dict("list")).write_parquet(qrels)
    swapped = ["evaluate", str(run), str(qrels), "-m", "ndcg@10", "-o", "json"]
    refused = CliRunner().invoke(cli, swapped)
    assert refused.exit_code == 2
    assert "run and qrels look swapped" in refused.output
    assert "--no-check-swapped" in refused.output
    scored_as_given = CliRunner().invoke(cli, [*swapped, "--no-check-swapped"])
    assert scored_as_given.exit_code == 0, scored_as_given.output
    assert '"ndcg@10"' in scored_as_given.output


@pytest.mark.parametrize("library", ["pandas", "polars"])
def test_the_issue_example_as_dataframes_warns_too(library: str) -> None:
    # Read from a table, the qrels' 2.0 becomes the grade 2: the frames' column types say
    # which side holds floats.
    import polars as pl

    run = {"q1": {"d1": 2.0, "d2": 1.0}, "q2": {"d3": 1.0}}
    qrels = {"q1": {"d2": 1}, "q2": {"d3": 2}}

    def table(values: dict[str, dict[str, Any]]) -> Any:
        rows = [(q, d, v) for q, docs in values.items() for d, v in docs.items()]
        data = pd.DataFrame(rows, columns=["q_id", "doc_id", "score"])
        return data if library == "pandas" else pl.from_dict(data.to_dict("list"))

    with pytest.warns(InputWarning, match="run and qrels may be swapped: .*ints, the qrels"):
        evaluate_run(table(qrels), table(run), metrics=("ndcg@10",))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        right = evaluate_run(table(run), table(qrels), metrics=("ndcg@10",))
    assert right.metrics["ndcg@10"] == pytest.approx(0.8154648767857288)


@pytest.mark.parametrize("library", ["pandas", "polars"])
def test_tables_of_rounded_scores_given_as_the_qrels_warn(library: str) -> None:
    # Eleven rounded scores (whole numbers 0-3) and eight grades (0-2): the values cannot tell
    # them apart, but int grades stand where scores belong, and the "qrels" hold every doc
    # of the "run": two signals, one of them the types, is a warning (the campaign's case).
    import polars as pl

    run = {
        "q1": {"d1": 3.0, "d2": 3.0, "d3": 2.0, "d9": 1.0, "d7": 1.0},
        "q2": {"d5": 2.0, "d4": 1.0, "d10": 0.0},
        "q3": {"d8": 1.0, "d11": 1.0, "d6": 0.0},
    }
    qrels = {
        "q1": {"d1": 1, "d2": 0, "d3": 2, "d7": 1},
        "q2": {"d4": 1, "d5": 0},
        "q3": {"d6": 1, "d8": 0},
    }

    def table(values: dict[str, dict[str, Any]]) -> Any:
        rows = [(q, d, v) for q, docs in values.items() for d, v in docs.items()]
        data = pd.DataFrame(rows, columns=["q_id", "doc_id", "score"])
        return data if library == "pandas" else pl.from_dict(data.to_dict("list"))

    with pytest.warns(InputWarning, match="may be swapped: the qrels argument holds 100% of"):
        evaluate_run(table(qrels), table(run), metrics=("ndcg@10",))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the right way round: floats in the run, ints in the qrels
        evaluate_run(table(run), table(qrels), metrics=("ndcg@10",))
