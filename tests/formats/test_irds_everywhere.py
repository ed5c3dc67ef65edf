"""``irds:<dataset-id>`` wherever qrels, queries, a corpus or a stored run may be given,
beyond evaluate_run (test_irds.py): each function and command gives the numbers it gives
for the dataset's own files, with the dataset's relevance level applied where binary
measures are scored (the TREC DL passage level, grade 2, in the tiny dataset)."""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ef.evaluation import (
    Experiment,
    InputWarning,
    Registry,
    System,
    compare,
    convert,
    evaluate_pipeline,
    evaluate_retrieval,
    fuse,
    merge_qrels,
    optimize_fusion,
    pool,
    rbo,
    read_dataset,
    read_qrels,
    read_queries,
    read_run,
    retrieve,
)
from ef.evaluation._engine.trec_eval import Options
from ef.evaluation._evaluate.trec_eval import trec_eval_files
from ef.evaluation.cli import cli

OTHER = "q1 Q0 d1 1 3.0 o\nq1 Q0 d3 2 2.0 o\nq1 Q0 d2 3 1.0 o\nq2 Q0 d2 1 2.0 o\nq2 Q0 d3 2 1.0 o\n"
DOCS = {"d1": "Paris is in France.", "d2": "London is in England.", "d3": "Rome."}
#: Binary measures given no level, and the keys they get from the dataset's level (grade 2).
GIVEN = ("map@3", "P@2", "ndcg@3")
LEVELLED = ("map(rel=2)@3", "precision(rel=2)@2", "ndcg@3")


@pytest.fixture
def files(tiny: str, tmp_path: Path) -> dict[str, Path]:
    """The tiny dataset's own files, and another run of it."""
    (tmp_path / "other.trec").write_text(OTHER)
    names = ("qrels.txt", "run.trec", "other.trec", "queries.tsv", "docs.tsv")
    return {name.partition(".")[0]: tmp_path / name for name in names}


def _levelled(caught: pytest.WarningsRecorder) -> list[str]:
    """The notes that the dataset's level was applied."""
    return [str(w.message) for w in caught if "count grades from 2" in str(w.message)]


def _retriever(query: str, *, limit: int = 10) -> list[str]:
    return {"where is paris": ["d2", "d1", "d3"], "rome": ["d1", "d3"]}[query][:limit]


def test_compare_scores_at_the_official_level(tiny: str, files: dict[str, Path]) -> None:
    options: dict[str, Any] = {"seed": 3, "n_resamples": 200, "test": "randomization"}
    expected = compare(
        {"dl": files["run"], "other": files["other"]}, files["qrels"], metrics=LEVELLED, **options
    )
    with pytest.warns(InputWarning) as caught:
        given = compare(
            {"dl": f"irds:{tiny}", "other": files["other"]},
            f"irds:{tiny}",
            metrics=GIVEN,
            **options,
        )
    assert len(_levelled(caught)) == 1  # once, not once per run
    assert given.metrics == expected.metrics == LEVELLED
    assert given.means == expected.means
    assert given.comparisons == expected.comparisons
    assert given.manifest["inputs"]["qrels"]["path"] == f"irds:{tiny}"


def test_optimize_fusion_maximises_the_levelled_metric(tiny: str, files: dict[str, Path]) -> None:
    runs = [files["run"], files["other"]]
    expected = optimize_fusion(files["qrels"], runs, metric="map(rel=2)@3", step=0.25)
    with pytest.warns(InputWarning, match="count grades from 2"):
        given = optimize_fusion(
            f"irds:{tiny}", [f"irds:{tiny}", files["other"]], metric="map@3", step=0.25
        )
    assert given.metric == expected.metric == "map(rel=2)@3"
    assert given.trials == expected.trials
    assert given.run is not None
    assert expected.run is not None
    assert given.run.to_dict() == expected.run.to_dict()


def test_fuse_pool_merge_and_rbo_read_the_dataset(tiny: str, files: dict[str, Path]) -> None:
    source = f"irds:{tiny}"
    assert fuse([source, files["other"]], method="rrf").to_dict() == (
        fuse([files["run"], files["other"]], method="rrf").to_dict()
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)  # read_qrels' note: nothing is scored
        pooled = pool({"dl": source, "other": files["other"]}, depth=2, qrels=source)
        merged = merge_qrels(source, {"q1": {"d9": 1}})
        merged_back = merge_qrels({"q3": {"d1": 1}}, source)
    expected = pool({"dl": files["run"], "other": files["other"]}, depth=2, qrels=files["qrels"])
    assert (pooled.docs, pooled.judged, pooled.contributed) == (
        expected.docs,
        expected.judged,
        expected.contributed,
    )
    qrels = read_qrels(files["qrels"])
    assert merged == merge_qrels(qrels, {"q1": {"d9": 1}})
    assert merged_back == merge_qrels({"q3": {"d1": 1}}, qrels)
    assert rbo(source, files["other"]).per_query == rbo(files["run"], files["other"]).per_query


@pytest.mark.parametrize(
    ("kind", "read"),
    [("qrels", read_qrels), ("run", read_run), ("queries", read_queries)],
)
def test_convert_writes_what_the_dataset_holds(
    tiny: str, files: dict[str, Path], kind: str, read: Callable[[object], object]
) -> None:
    target = files["qrels"].parent / "out" / f"{kind}.trec"
    target.parent.mkdir()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)  # read_qrels' note of the level
        assert convert(f"irds:{tiny}", target, kind=kind, to_format="trec") == kind  # type: ignore[arg-type]
        assert read(target) == read(f"irds:{tiny}")
    if kind != "queries":  # the files' values too
        assert read(target) == read(files[kind])


def test_convert_of_a_corpus_and_a_whole_dataset(
    tiny: str, tmp_path: Path, builtin_registry: Registry
) -> None:
    assert convert(f"irds:{tiny}", tmp_path / "corpus.trec", kind="corpus") == "corpus"
    documents = builtin_registry.formats["trec"].read_corpus(tmp_path / "corpus.trec")  # type: ignore[misc]
    assert {d.id: d.text for d in documents} == DOCS
    with pytest.warns(InputWarning, match="ir_datasets records no relevance level"):
        assert convert(f"irds:{tiny}", tmp_path / "out", to_format="beir") == "dataset"
    corpus, queries, qrels = read_dataset(tmp_path / "out")
    assert dict(corpus.items()) == DOCS
    assert queries == {"q1": "where is paris", "q2": "rome"}
    assert qrels == read_qrels(tmp_path / "qrels.txt")


def test_evaluate_retrieval_and_retrieve(tiny: str, files: dict[str, Path]) -> None:
    qrels, queries = read_qrels(files["qrels"]), read_queries(f"irds:{tiny}")
    expected = evaluate_retrieval(_retriever, qrels, queries, metrics=LEVELLED)
    with pytest.warns(InputWarning) as caught:
        given = evaluate_retrieval(_retriever, f"irds:{tiny}", f"irds:{tiny}", metrics=GIVEN)
    assert _levelled(caught)
    assert given.metrics == expected.metrics
    assert list(given.metrics) == list(LEVELLED)
    assert given.per_query == expected.per_query
    assert retrieve(_retriever, f"irds:{tiny}").rankings == retrieve(_retriever, queries).rankings


def test_evaluate_pipeline_reads_qrels_queries_and_corpus(
    tiny: str, files: dict[str, Path]
) -> None:
    queries = read_queries(f"irds:{tiny}")
    options: dict[str, Any] = {"generate": lambda question, contexts: contexts[0], "n_contexts": 2}
    expected = evaluate_pipeline(
        _retriever,
        read_qrels(files["qrels"]),
        queries,
        corpus=DOCS,
        metrics=LEVELLED,
        **options,
    )
    with pytest.warns(InputWarning, match="count grades from 2"):
        given = evaluate_pipeline(
            _retriever,
            f"irds:{tiny}",
            f"irds:{tiny}",
            corpus=f"irds:{tiny}",
            metrics=GIVEN,
            **options,
        )
    assert given.retrieval is not None
    assert expected.retrieval is not None
    assert given.retrieval.metrics == expected.retrieval.metrics
    assert given.samples == expected.samples  # the contexts, their ids, the answers


def test_an_experiment_on_a_dataset_applies_its_level(tiny: str, files: dict[str, Path]) -> None:
    systems = [System("dl", run=files["run"]), System("other", run=files["other"])]
    options: dict[str, Any] = {
        "seed": 3,
        "n_resamples": 200,
        "test": "randomization",
        "k_values": (3,),
    }
    queries, qrels = read_queries(files["queries"]), read_qrels(files["qrels"])
    expected = Experiment(systems, (queries, qrels), metrics=LEVELLED, **options).run()
    with pytest.warns(InputWarning, match="count grades from 2"):
        given = Experiment(systems, f"irds:{tiny}", metrics=GIVEN, **options).run()
    assert given.metrics == expected.metrics == LEVELLED
    assert given.means == expected.means
    assert given.comparisons == expected.comparisons


def test_trec_eval_scores_at_its_own_level(tiny: str, files: dict[str, Path]) -> None:
    for level in (1, 2):
        opts = Options(rel_level=level)
        expected = trec_eval_files(files["qrels"], files["run"], ["map", "P.2"], opts)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            given = trec_eval_files(f"irds:{tiny}", files["run"], ["map", "P.2"], opts)
        assert (given.query_ids, given.summary) == (expected.query_ids, expected.summary)
        assert [c.name for c in given.columns] == [c.name for c in expected.columns]
        # -l 2 is the official level: nothing to say; at -l 1, the level to pass.
        said = [str(w.message) for w in caught if "-l 2 applies it" in str(w.message)]
        assert len(said) == (level == 1)


def _invoke(*args: str) -> tuple[str, str]:
    result = CliRunner().invoke(cli, list(args), prog_name="ef-eval")
    assert result.exit_code == 0, result.output
    return result.stdout, result.stderr


def test_cli_compare_and_agree(tiny: str, files: dict[str, Path]) -> None:
    common = ("--seed", "3", "--n-resamples", "200", "-o", "json")
    expected, _ = _invoke(
        "compare",
        str(files["qrels"]),
        f"dl={files['run']}",
        f"other={files['other']}",
        "-m",
        ",".join(LEVELLED),
        *common,
    )
    given, said = _invoke(
        "compare",
        f"irds:{tiny}",
        f"dl=irds:{tiny}",
        f"other={files['other']}",
        "-m",
        ",".join(GIVEN),
        *common,
    )
    drop = ("manifest",)
    assert {k: v for k, v in json.loads(given).items() if k not in drop} == {
        k: v for k, v in json.loads(expected).items() if k not in drop
    }
    assert "count grades from 2" in said
    agreed, _ = _invoke(
        "agree",
        f"irds:{tiny}",
        f"dl=irds:{tiny}",
        f"other={files['other']}",
        "-m",
        "map@3,P@2",
        "-o",
        "json",
    )
    files_agreed, _ = _invoke(
        "agree",
        str(files["qrels"]),
        f"dl={files['run']}",
        f"other={files['other']}",
        "-m",
        "map(rel=2)@3,P(rel=2)@2",
        "-o",
        "json",
    )

    def correlations(out: str) -> list[dict[str, object]]:
        rows = json.loads(out)["rank_correlation"]
        return [{k: v for k, v in row.items() if k not in ("a", "b")} for row in rows]

    assert correlations(agreed) == correlations(files_agreed)


def test_cli_fuse_pool_and_convert(tiny: str, files: dict[str, Path], tmp_path: Path) -> None:
    _invoke("fuse", f"irds:{tiny}", str(files["other"]), "-o", str(tmp_path / "a.trec"))
    _invoke("fuse", str(files["run"]), str(files["other"]), "-o", str(tmp_path / "b.trec"))
    assert read_run(tmp_path / "a.trec") == read_run(tmp_path / "b.trec")
    _invoke(
        "pool", f"irds:{tiny}", "--qrels", f"irds:{tiny}", "-d", "2", "-o", str(tmp_path / "a.txt")
    )
    _invoke(
        "pool",
        str(files["run"]),
        "--qrels",
        str(files["qrels"]),
        "-d",
        "2",
        "-o",
        str(tmp_path / "b.txt"),
    )
    assert (tmp_path / "a.txt").read_text() == (tmp_path / "b.txt").read_text()
    out, _ = _invoke(
        "convert", f"irds:{tiny}", str(tmp_path / "q.txt"), "--kind", "qrels", "--to", "trec"
    )
    assert out.startswith("converted qrels: ")
    assert read_qrels(tmp_path / "q.txt") == read_qrels(files["qrels"])


def test_cli_experiment_and_pipeline(tiny: str, files: dict[str, Path], tmp_path: Path) -> None:
    common = ("--seed", "3", "--n-resamples", "200", "-k", "3", "-o", "json")
    given, said = _invoke(
        "experiment",
        f"irds:{tiny}",
        f"dl={files['run']}",
        f"other={files['other']}",
        "-m",
        "map,P",
        *common,
    )
    data = json.loads(given)
    assert data["metrics"] == ["map(rel=2)@3", "precision(rel=2)@3"]
    assert "count grades from 2" in said
    answers = tmp_path / "answers.jsonl"
    answers.write_text('{"id": "q1", "response": "Paris"}\n{"id": "q2", "response": "Rome"}\n')
    out, said = _invoke(
        "pipeline",
        f"irds:{tiny}",
        "--run",
        str(files["run"]),
        "--answers",
        str(answers),
        "-m",
        "map",
        "-k",
        "3",
        "-o",
        "json",
    )
    expected = evaluate_pipeline(
        files["run"],
        read_qrels(files["qrels"]),
        read_queries(files["queries"]),
        generate={"q1": "Paris", "q2": "Rome"},
        corpus=DOCS,
        metrics=("map(rel=2)",),
        k_values=(3,),
        limit=10**9,
    )
    assert expected.retrieval is not None
    assert json.loads(out)["retrieval"]["metrics"] == expected.retrieval.metrics
    assert "count grades from 2" in said


def test_cli_trec_eval_takes_irds_qrels(tiny: str, files: dict[str, Path]) -> None:
    from ef.evaluation.cli._trec_eval import trec_eval_command

    runner = CliRunner()
    expected = runner.invoke(
        trec_eval_command, ["-m", "map", str(files["qrels"]), str(files["run"])]
    )
    given = runner.invoke(trec_eval_command, ["-m", "map", f"irds:{tiny}", str(files["run"])])
    assert given.exit_code == expected.exit_code == 0, given.output
    assert given.stdout == expected.stdout
    assert "-l 2 applies it" in given.stderr
