"""``irds:<dataset-id>`` sources: ir_datasets' own loading code, on a tiny dataset registered
in its registry over files written here. Nothing downloads: the dataset's files are local and
IR_DATASETS_HOME is a temporary folder."""

from __future__ import annotations

import json
import re
import sys
import warnings
from pathlib import Path

import pytest
from click.testing import CliRunner

from ef.evaluation import (
    DatasetFormatError,
    InputWarning,
    MissingDependencyError,
    evaluate_run,
    evaluate_shards,
    read_dataset,
    read_qrels,
    read_queries,
    read_run,
)
from ef.evaluation._formats.irds import relevance_level, relevance_note
from ef.evaluation.cli import cli

from .irds_dataset import DL_PASSAGE, QRELS, register

METRICS = ("ndcg@10", "map", "map(rel=2)", "P@2", "recall@3")


def test_readers_give_the_files_values(tiny: str, tmp_path: Path) -> None:
    source = f"irds:{tiny}"
    with pytest.warns(InputWarning, match="grade 2"):
        assert read_qrels(source) == read_qrels(tmp_path / "qrels.txt")
    assert read_run(source) == read_run(tmp_path / "run.trec")
    assert read_queries(source) == {"q1": "where is paris", "q2": "rome"}
    with pytest.warns(InputWarning):
        corpus, queries, qrels = read_dataset(source)
    assert dict(corpus.items())["d2"] == "London is in England."
    assert (queries, qrels) == (read_queries(source), read_qrels(tmp_path / "qrels.txt"))


#: METRICS with the DL passage level applied: the binary measures given no level take rel=2,
#: and "map" and "map(rel=2)" become one.
LEVELLED = ("ndcg@10", "map(rel=2)", "P(rel=2)@2", "recall(rel=2)@3")


def test_evaluate_run_applies_the_official_level(tiny: str, tmp_path: Path) -> None:
    files = evaluate_run(tmp_path / "run.trec", tmp_path / "qrels.txt", metrics=LEVELLED)
    with pytest.warns(InputWarning) as caught:
        given = evaluate_run(f"irds:{tiny}", f"irds:{tiny}", metrics=METRICS)
    assert given.metrics == files.metrics
    assert given.per_query == files.per_query
    # The level changes the numbers: grade 1 no longer counts for the binary measures.
    assert (
        given.metrics
        != evaluate_run(tmp_path / "run.trec", tmp_path / "qrels.txt", metrics=METRICS).metrics
    )
    (note,) = [str(w.message) for w in caught if "relevance level" in str(w.message)]
    assert note.startswith(f"irds:{tiny}: ir_datasets records no relevance level; the official")
    assert "RR(rel=2), AP(rel=2) judge relevance from grade 2" in note
    applied = note.partition("count grades from 2: ")[2].partition(". Name the level")[0]
    assert applied.split(", ") == [m for m in given.metrics if "rel=2" in m]
    assert caught[0].filename == __file__  # at the caller's line
    assert given.manifest["inputs"]["qrels"]["path"] == f"irds:{tiny}"


def test_a_level_named_is_kept(tiny: str, tmp_path: Path) -> None:
    named = ("map(rel=1)", "P(rel=1)@2", "ndcg@10")
    files = evaluate_run(tmp_path / "run.trec", tmp_path / "qrels.txt", metrics=named)
    with warnings.catch_warnings():
        warnings.simplefilter("error", InputWarning)  # nothing applied: nothing to say
        given = evaluate_run(f"irds:{tiny}", f"irds:{tiny}", metrics=named)
    assert given.metrics == files.metrics


def test_evaluate_shards_applies_the_level_too(tiny: str, tmp_path: Path) -> None:
    files = evaluate_run(tmp_path / "run.trec", tmp_path / "qrels.txt", metrics=LEVELLED)
    with pytest.warns(InputWarning, match="count grades from 2"):
        given = evaluate_shards([tmp_path / "run.trec"], f"irds:{tiny}", metrics=METRICS)
    assert given.metrics == files.metrics


def test_cli_evaluate_gives_the_numbers_of_the_files(tiny: str, tmp_path: Path) -> None:
    def evaluate(qrels: str, run: str, metrics: tuple[str, ...]) -> tuple[dict[str, object], str]:
        result = CliRunner().invoke(
            cli, ["evaluate", qrels, run, "-m", ",".join(metrics), "-o", "json"]
        )
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)["metrics"], result.stderr

    files, quiet = evaluate(str(tmp_path / "qrels.txt"), str(tmp_path / "run.trec"), LEVELLED)
    given, said = evaluate(f"irds:{tiny}", f"irds:{tiny}", METRICS)
    assert given == files
    assert "relevance level" not in quiet
    assert f"warning: irds:{tiny}: ir_datasets records no relevance level" in said
    # A stored run of one's own against the dataset's qrels.
    mixed, _ = evaluate(f"irds:{tiny}", str(tmp_path / "run.trec"), METRICS)
    assert mixed == files


def test_what_the_dataset_lacks_is_named(irds: object, tmp_path: Path) -> None:
    dataset_id = register(irds, tmp_path, measures=[], run=False)
    try:
        with pytest.raises(
            ValueError,
            match=rf"irds:{dataset_id}: the dataset has no run \(scoreddocs\); it provides",
        ):
            read_run(f"irds:{dataset_id}")
    finally:
        irds.registry._registered.pop(dataset_id)  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="ir_datasets knows no dataset 'ef-test/none'"):
        read_qrels("irds:ef-test/none")
    result = CliRunner().invoke(cli, ["evaluate", "irds:ef-test/none", "irds:ef-test/none"])
    assert result.exit_code != 0
    assert "ir_datasets knows no dataset 'ef-test/none'" in result.stderr


def test_missing_ir_datasets_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ir_datasets", None)  # import fails, as when absent
    with pytest.raises(MissingDependencyError, match=r"irds:x/y: .*ef-evaluation\[irds\]"):
        read_qrels("irds:x/y")


@pytest.mark.parametrize(
    ("measures", "level", "said"),
    [
        (DL_PASSAGE, 2, "RR(rel=2), AP(rel=2) judge relevance from grade 2"),
        (
            ["AP@100", "nDCG@10", "P@10", "RR(rel=2)"],
            1,
            "disagree on the relevance level (AP@100, P@10 from grade 1; ",
        ),
        (["RR@10"], 1, "RR@10 judge relevance from grade 1"),
        (["nDCG@10"], 1, "name no relevance level"),
        ([], 1, "name no relevance level"),
    ],
)
def test_relevance_level(measures: list[str], level: int, said: str) -> None:
    assert relevance_level(measures)[0] == level
    assert said in relevance_level(measures)[1]
    note = relevance_note("irds:x", measures)
    assert ("pass them with rel=2, e.g. map(rel=2)" in note) == (level == 2)


def test_binary_qrels_need_no_note(irds: object, tmp_path: Path) -> None:
    dataset_id = register(irds, tmp_path, measures=DL_PASSAGE)
    (tmp_path / "qrels.txt").write_text("q1 0 d1 1\nq2 0 d3 0\n")  # read when iterated
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", InputWarning)
            assert read_qrels(f"irds:{dataset_id}") == {"q1": {"d1": 1}, "q2": {"d3": 0}}
    finally:
        irds.registry._registered.pop(dataset_id)  # type: ignore[attr-defined]


def test_a_doc_given_two_grades_is_refused_not_chosen(irds: object, tmp_path: Path) -> None:
    conflicting = register(irds, tmp_path / "a", measures=["nDCG@10"], qrels=QRELS + "q2 0 d3 0\n")
    repeated = register(irds, tmp_path / "b", measures=["nDCG@10"], qrels=QRELS + "q2 0 d3 2\n")
    try:
        said = f"irds:{conflicting}: doc 'd3' of query 'q2' has two grades, 2 and 0"
        with pytest.raises(DatasetFormatError, match=re.escape(said)):
            read_qrels(f"irds:{conflicting}")
        # The same judgement twice, with the same grade, is no conflict.
        with pytest.warns(InputWarning, match="ir_datasets records no relevance level"):
            assert read_qrels(f"irds:{repeated}") == {
                "q1": {"d1": 2, "d2": 1, "d3": 0},
                "q2": {"d2": 1, "d3": 2},
            }
    finally:
        for dataset_id in (conflicting, repeated):
            irds.registry._registered.pop(dataset_id)  # type: ignore[attr-defined]
