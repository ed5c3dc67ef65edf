"""A file no format recognises: an empty file and a CSV table say so, naming the file, with a
fix that works (issue 25); anything else is "cannot tell the format", naming the options."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from ef.evaluation import (
    DatasetFormatError,
    evaluate_run,
    read_dataset,
    read_qrels,
    read_run,
)
from ef.evaluation.cli import cli
from ef.evaluation.errors import FormatNotDetectedError

pl = pytest.importorskip("polars")

RUN = {"q1": {"007": 0.5, "d2": 0.7}, "q2": {"d3": 0.2}}
QRELS = {"q1": {"007": 1, "d2": 0}, "q2": {"d3": 2}}
METRICS = ("ndcg@10", "map@all")


def _empty(path: Path, how: str) -> Path:
    data = {"bytes": b"", "blank": b"\n  \n\n", "comments": b"# run of bm25\n\n# none\n"}
    if how == "gzip":
        path.write_bytes(gzip.compress(b""))
    else:
        path.write_bytes(data[how])
    return path


@pytest.mark.parametrize(
    ("how", "said"),
    [
        ("bytes", "the file is empty (0 bytes)"),
        ("blank", "the file holds no data: 3 blank lines"),
        ("comments", "the file holds no data: only comment lines (starting with '#')"),
        ("gzip", "the file is empty (a gzip file of 0 bytes once decompressed)"),
    ],
)
def test_an_empty_file_says_so_naming_it(tmp_path: Path, how: str, said: str) -> None:
    # Not "cannot tell the format": naming a format would not help.
    path = _empty(tmp_path / "run.txt", how)
    named = f"^{re.escape(str(path))}: {re.escape(said)}; expected"
    with pytest.raises(DatasetFormatError, match=named + r" a run \(msmarco, parquet, trec\)"):
        read_run(path)
    with pytest.raises(DatasetFormatError, match=named + r" qrels \(beir, msmarco, parquet"):
        read_qrels(path)
    with pytest.raises(DatasetFormatError, match=named + " a run"):
        evaluate_run(path, QRELS)


def test_the_cli_says_a_run_file_is_empty(tmp_path: Path) -> None:
    run = _empty(tmp_path / "run.trec", "bytes")
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d1 1\n")
    result = CliRunner().invoke(cli, ["evaluate", str(qrels), str(run)])
    assert result.exit_code == 2
    assert result.stderr == f"Error: {run}: the file is empty (0 bytes); expected a run " + (
        "(msmarco, parquet, trec)\n"
    )


def _csv(path: Path, header: str | None, rows: dict[str, dict[str, float]]) -> Path:
    lines = [header] if header is not None else []
    lines += [f"{q},{d},{v}" for q, docs in rows.items() for d, v in docs.items()]
    path.write_text("\n".join(lines) + "\n")
    return path


def _hint(message: str) -> str:
    return message.split("read it as a DataFrame and pass that: ", 1)[1]


@pytest.mark.parametrize(
    ("header", "named"),
    [
        ("q,doc,score", "run_columns=('q', 'doc', 'score')"),  # named by position
        ("query_id,doc_id,score", None),  # ir_measures' columns: found without naming them
        (None, None),  # no header: named by the hint
    ],
)
def test_a_csv_run_says_how_to_evaluate_it_and_the_hint_works(
    tmp_path: Path, header: str | None, named: str | None
) -> None:
    path = _csv(tmp_path / "run.csv", header, RUN)
    with pytest.raises(FormatNotDetectedError) as caught:
        evaluate_run(path, QRELS, metrics=METRICS)
    message = str(caught.value)
    shown = f"columns {header.replace(',', ', ')}" if header else "no header line; its first row"
    assert message.startswith(f"{path} looks like a CSV table ({shown}")
    assert "which no run format reads (msmarco, parquet, trec)" in message
    hint = _hint(message)
    assert (named in hint) if named else ("run_columns" not in hint)
    # The hint, run as it is, gives the numbers of the run itself ('007' stays a str).
    got = eval(hint, {"polars": pl, "evaluate_run": evaluate_run, "qrels": QRELS})
    assert got.metrics == evaluate_run(RUN, QRELS).metrics
    assert got.n_queries == 2


def test_a_csv_qrels_file_says_how_to_evaluate_with_it(tmp_path: Path) -> None:
    path = _csv(tmp_path / "qrels.csv", "topic,doc,rel", QRELS)  # type: ignore[arg-type]
    with pytest.raises(FormatNotDetectedError, match="which no qrels format reads") as caught:
        evaluate_run(RUN, path, metrics=METRICS)
    hint = _hint(str(caught.value))
    assert "qrels_columns=('topic', 'doc', 'rel')" in hint
    got = eval(hint, {"polars": pl, "evaluate_run": evaluate_run, "run": RUN})
    assert got.metrics == evaluate_run(RUN, QRELS).metrics


def test_a_csv_with_columns_that_cannot_be_told_asks_to_name_them(tmp_path: Path) -> None:
    path = tmp_path / "run.csv"
    path.write_text("a,b,c,d\nq1,d1,1,0.5\n")
    with pytest.raises(FormatNotDetectedError, match=r"run_columns=\(query, doc, score\)\) "):
        read_run(path)


def test_the_cli_says_how_to_turn_a_csv_run_into_a_file_it_reads(tmp_path: Path) -> None:
    run = _csv(tmp_path / "run.csv", "q,doc,score", RUN)
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("".join(f"{q} 0 {d} {g}\n" for q, j in QRELS.items() for d, g in j.items()))
    result = CliRunner().invoke(cli, ["evaluate", str(qrels), str(run)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"Error: {run} looks like a CSV table (columns q, doc, score)")
    assert "cannot tell the format" not in result.stderr
    code = re.search(r'python -c "([^"]+)"', result.stderr)
    assert code is not None
    exec(code.group(1), {})  # what the user runs: writes run.parquet beside run.csv
    target = tmp_path / "run.parquet"
    assert f"then give {target}" in result.stderr
    again = CliRunner().invoke(
        cli, ["evaluate", str(qrels), str(target), "-m", "ndcg@10", "-o", "json"]
    )
    assert again.exit_code == 0, again.stderr
    assert '"ndcg@10": ' + repr(evaluate_run(RUN, QRELS, metrics=["ndcg@10"]).metrics["ndcg@10"])


def test_a_folder_no_format_recognises_is_named_with_what_it_holds(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello\n")
    expected = re.escape(f"the folder {tmp_path.resolve()}, which holds notes.txt; name it with")
    with pytest.raises(FormatNotDetectedError, match=f"cannot tell the format of .*{expected}"):
        read_dataset(tmp_path)


def test_any_other_file_is_still_an_undetected_format_naming_the_option(tmp_path: Path) -> None:
    path = tmp_path / "run.xyz"
    path.write_text("hello world\n")
    with pytest.raises(FormatNotDetectedError, match=r"cannot tell the format of .*name it with"):
        read_run(path)
