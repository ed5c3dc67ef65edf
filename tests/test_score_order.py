"""A run listed by rising score (issue 25): distances where lower is better, ranks in the
score column, or the scores equal to the ranks. trec_eval (and ef) rank by score, highest
first, and ignore the rank column, so each query is ranked backwards and the number looks
plausible: an InputWarning says so, on every path that reads a run file or table; normal
runs, runs of equal scores and mappings (whose order says nothing) say nothing."""

from __future__ import annotations

import re
import warnings
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from click.testing import CliRunner

from ef.evaluation import InputWarning, RunTable, evaluate_run, fuse
from ef.evaluation.cli import cli
from ef.evaluation.cli._trec_eval import trec_eval_command

from .conftest import shared_path

QRELS = {"q1": {"d1": 1, "d3": 2}, "q2": {"d4": 1}, "q3": {"d6": 1}}
#: Each query's docs best first, as a retriever gives them: five, three and three.
RANKED = {
    "q1": ["d1", "d3", "d2", "d9", "d7"],
    "q2": ["d4", "d5", "d10"],
    "q3": ["d6", "d8", "d11"],
}

RISING = "lists its docs by rising score in 3 of its 3 queries whose scores differ"


def lines(score: Any, fmt: str = "{q} Q0 {d} {r} {s} t\n") -> str:
    """A TREC run of RANKED, in rank order, with ``score(rank, docs)`` as each doc's score."""
    return "".join(
        fmt.format(q=q, d=d, r=r, s=score(r, len(docs)))
        for q, docs in RANKED.items()
        for r, d in enumerate(docs, start=1)
    )


FILES = {
    "distances": lines(lambda r, n: f"{0.1 * r:.2f}"),  # lower is better
    "rank and score swapped": lines(lambda r, n: f"{n + 1 - r}.5", "{q} Q0 {d} {s} {r} t\n"),
    "scores are the ranks": lines(lambda r, n: f"{r}"),
}


def _warnings(call: Any) -> tuple[Any, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = call()
    return got, [str(w.message) for w in caught if issubclass(w.category, InputWarning)]


@pytest.mark.parametrize("case", FILES)
def test_a_run_file_listed_by_rising_score_warns(tmp_path: Path, case: str) -> None:
    path = tmp_path / "run.trec"
    path.write_text(FILES[case], encoding="utf-8")
    first = f"the run {path} {RISING} (first 'q1', 'q2', 'q3')"
    with pytest.warns(InputWarning, match=re.escape(first)):
        report = evaluate_run(path, QRELS, metrics=["mrr@10"])
    assert report.metrics["mrr@10"] < 0.5  # ranked backwards: what the warning is about
    # The table of the file warns when it is evaluated, as the file does.
    with pytest.warns(InputWarning, match=f"^the run {RISING}") as caught:
        evaluate_run(RunTable.read(path), QRELS, metrics=["mrr@10"])
    message = str(caught[0].message)
    assert "ranked by score, highest first, as trec_eval ranks them" in message
    assert "negate the scores (1 - distance, or -distance)" in message
    ranks = "In 3 of them the scores are the ranks, 1, 2, 3, ...: is the rank in the score column"
    assert (ranks in message) == (case != "distances")
    assert caught[0].filename == __file__  # it points at the caller


def test_a_dataframe_listed_by_rising_score_warns() -> None:
    rows = [(q, d, 0.1 * r) for q, docs in RANKED.items() for r, d in enumerate(docs, start=1)]
    frame = pd.DataFrame(rows, columns=["q_id", "doc_id", "score"])
    with pytest.warns(InputWarning, match=re.escape(f"the run {RISING}")):
        evaluate_run(frame, QRELS, metrics=["mrr@10"])


def test_fuse_names_the_run_listed_by_rising_score(tmp_path: Path) -> None:
    backwards = tmp_path / "dense.trec"
    backwards.write_text(FILES["distances"], encoding="utf-8")
    right = tmp_path / "bm25.trec"
    right.write_text(lines(lambda r, n: f"{10 - r}"), encoding="utf-8")
    with pytest.warns(InputWarning, match=re.escape(f"{backwards} {RISING}")):
        fuse([right, backwards], method="rrf")


NOT_RISING = {
    "rank order": lines(lambda r, n: f"{10 - r}.25"),
    "all scores equal": lines(lambda r, n: "1"),
    "one query of three rising": lines(lambda r, n: "1").replace(
        "q3 Q0 d6 1 1 t\nq3 Q0 d8 2 1 t\nq3 Q0 d11 3 1 t", "q3 Q0 d6 1 1 t\nq3 Q0 d8 2 2 t\n"
    ),
    "a few lines in any order": "q1 Q0 d3 1 0.5 t\nq1 Q0 d1 2 0.9 t\nq2 Q0 d4 1 0.2 t\n",
}


@pytest.mark.parametrize("case", NOT_RISING)
def test_runs_not_listed_by_rising_score_say_nothing(tmp_path: Path, case: str) -> None:
    path = tmp_path / "run.trec"
    path.write_text(NOT_RISING[case], encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        evaluate_run(path, QRELS, metrics=["mrr@10"])


def test_a_mapping_in_rising_order_says_nothing() -> None:
    # dict(sorted(scores.items(), key=...)) is a fine way to build a run: its order is no rank.
    run = {q: {d: 0.1 * r for r, d in enumerate(docs, start=1)} for q, docs in RANKED.items()}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        evaluate_run(run, QRELS, metrics=["mrr@10"])
        evaluate_run(RunTable.from_dict(run), QRELS, metrics=["mrr@10"])


@pytest.mark.parametrize(
    "run",
    [
        ("cacm", "run.cacm-bm25.txt"),
        ("scifact-runs", "run.scifact.test.bm25s-lucene-k1_0.9-b_0.4.txt.gz"),
    ],
)
def test_real_bm25_runs_say_nothing_and_reversed_they_warn(tmp_path: Path, run: Any) -> None:
    path = shared_path("datasets", *run)
    table = RunTable.read(path)
    _, said = _warnings(lambda: evaluate_run(table, {"1": {"x": 1}}, check_doc_ids=False))
    assert not [m for m in said if "rising score" in m]
    backwards = tmp_path / "backwards.trec"
    with backwards.open("w", encoding="utf-8") as out:
        for query_id in table.query_ids:
            docs, scores = table.docs_and_scores(query_id)
            for doc, score in reversed(list(zip(docs, scores.tolist(), strict=True))):
                out.write(f"{query_id} Q0 {doc} 1 {score!r} t\n")
    _, said = _warnings(lambda: evaluate_run(backwards, {"1": {"x": 1}}, check_doc_ids=False))
    assert [m for m in said if "rising score" in m]


def test_ef_eval_prints_one_warning_line(tmp_path: Path) -> None:
    qrels, run = tmp_path / "qrels.txt", tmp_path / "run.trec"
    qrels.write_text("".join(f"{q} 0 {d} {g}\n" for q, j in QRELS.items() for d, g in j.items()))
    run.write_text(FILES["distances"], encoding="utf-8")
    result = CliRunner().invoke(cli, ["evaluate", str(qrels), str(run), "-m", "mrr@10"])
    assert result.exit_code == 0, result.output
    [line] = [x for x in result.stderr.splitlines() if RISING in x]
    assert line.startswith(f"warning: the run {run} {RISING}")


@pytest.mark.parametrize("version", ["9.0.8", "10.0"])
def test_ef_trec_eval_prints_a_warning_and_trec_eval_s_bytes(tmp_path: Path, version: str) -> None:
    qrels, run = tmp_path / "qrels.txt", tmp_path / "run.trec"
    qrels.write_text("".join(f"{q} 0 {d} {g}\n" for q, j in QRELS.items() for d, g in j.items()))
    run.write_text(FILES["scores are the ranks"], encoding="utf-8")
    result = CliRunner().invoke(
        trec_eval_command, ["--compat", version, "-m", "recip_rank", str(qrels), str(run)]
    )
    assert result.exit_code == 0
    # q1's relevant d1 and d3 are last and fourth of five: trec_eval's number, noted.
    assert result.stdout == f"recip_rank            \tall\t{(1 / 4 + 1 / 3 + 1 / 3) / 3:.4f}\n"
    assert result.stderr.startswith(f"warning: the run {run} {RISING}")
    assert result.stderr.count("\n") == 1


def test_ef_eval_compare_prints_one_warning_line_naming_the_run(tmp_path: Path) -> None:
    # compare printed its InputWarnings as Python's warnings (two lines, with a source line).
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("".join(f"{q} 0 {d} {g}\n" for q, j in QRELS.items() for d, g in j.items()))
    right, backwards = tmp_path / "bm25.trec", tmp_path / "dense.trec"
    right.write_text(lines(lambda r, n: f"{10 - r}"), encoding="utf-8")
    backwards.write_text(FILES["distances"], encoding="utf-8")
    args = ["compare", str(qrels), str(right), str(backwards), "-m", "mrr@10", "-o", "json"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        line for line in result.stderr.splitlines() if line.startswith(("warning: ", "note: "))
    ]
    assert f"warning: the run {backwards} {RISING}" in result.stderr
