"""``ef-eval diversity``: the same numbers as evaluate_diversity, and its errors as one line."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from ef.evaluation import evaluate_diversity
from ef.evaluation.cli import cli

QRELS = "51 1 a 1\n51 2 b 1\n51 2 c 1\n52 1 d 1\n52 3 e 1\n52 3 d 0\n"
RUN = "51 Q0 c 1 3 r\n51 Q0 a 2 2 r\n51 Q0 b 3 1 r\n52 Q0 e 1 5 r\n52 Q0 d 2 5 r\n"


def _files(tmp_path: Path) -> tuple[Path, Path]:
    qrels, run = tmp_path / "qrels.txt", tmp_path / "run.trec"
    qrels.write_text(QRELS, encoding="utf-8")
    run.write_text(RUN, encoding="utf-8")
    return qrels, run


def test_the_command_prints_what_evaluate_diversity_gives(tmp_path: Path) -> None:
    qrels, run = _files(tmp_path)
    measures = ["alpha_nDCG@2", "NRBP(beta=0.8)", "MAP-IA"]
    result = CliRunner().invoke(
        cli, ["diversity", str(qrels), str(run), "-m", ",".join(measures), "-o", "json", "-q"]
    )
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    report = evaluate_diversity(run, qrels, metrics=measures)
    assert printed["metrics"] == dict(report.metrics)
    assert printed["per_query"] == {q: dict(v) for q, v in report.per_query.items()}


def test_cutoffs_and_averaging(tmp_path: Path) -> None:
    qrels, _ = _files(tmp_path)
    (tmp_path / "short.trec").write_text("51 Q0 c 1 3 r\n", encoding="utf-8")
    args = ["diversity", str(qrels), str(tmp_path / "short.trec"), "-m", "strec", "-o", "json"]
    over_qrels = json.loads(CliRunner().invoke(cli, [*args, "-k", "1,2"]).stdout)
    both = json.loads(
        CliRunner().invoke(cli, [*args, "-k", "1", "--averaging", "intersection"]).stdout
    )
    assert over_qrels["metrics"] == {"subtopic_recall@1": 0.25, "subtopic_recall@2": 0.25}
    assert both["metrics"] == {"subtopic_recall@1": 0.5}


def test_errors_are_one_line(tmp_path: Path) -> None:
    qrels, run = _files(tmp_path)
    result = CliRunner().invoke(cli, ["diversity", str(qrels), str(run), "-m", "ndcg@10"])
    assert result.exit_code != 0
    assert "unknown diversity measure 'ndcg'" in result.output
    result = CliRunner().invoke(cli, ["diversity", str(qrels), str(run), "-k", "0"])
    assert result.exit_code == 2
    assert "expected ints >= 1" in result.output
