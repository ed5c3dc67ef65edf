"""Recording from the API, the CLI and their names: recorded only when asked, into the store
the URL or EF_EVALUATION_STORE names, and refused rather than named by a guess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ef.evaluation import InputWarning, evaluate_retrieval, evaluate_run, open_store
from ef.evaluation._store.location import ENVIRONMENT, default_path, where
from ef.evaluation._store.recording import dataset_name, git_commit, system_name
from ef.evaluation.cli import cli
from ef.evaluation.errors import ArgumentError

RUN = {"q1": {"d1": 1.0, "d2": 0.5}, "q2": {"d3": 1.0}}
QRELS = {"q1": {"d2": 1}, "q2": {"d3": 1}}


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    run = tmp_path / "runs" / "bm25.trec"
    run.parent.mkdir()
    run.write_text("q1 Q0 d1 1 1.0 x\nq1 Q0 d2 2 0.5 x\nq2 Q0 d3 1 1.0 x\n")
    qrels = tmp_path / "toy" / "qrels" / "test.tsv"
    qrels.parent.mkdir(parents=True)
    qrels.write_text("query-id\tcorpus-id\tscore\nq1\td2\t1\nq2\td3\t1\n")
    return run, qrels


def test_evaluate_run_records_only_when_asked(
    tmp_path: Path, files: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    store = tmp_path / "store.sqlite"
    monkeypatch.setenv(ENVIRONMENT, str(store))
    run, qrels = files
    report = evaluate_run(run, qrels)
    assert not store.exists()  # the variable picks the store; it records nothing alone
    recorded = evaluate_run(run, qrels, record=True, tags=["first"])
    assert recorded == report
    with open_store() as opened:
        (record,) = opened.records()
    assert (record.system, record.dataset, record.tags) == ("bm25", "toy/test", ("first",))
    assert record.report == report
    assert record.recorded_at.tzinfo is not None


def test_evaluate_run_needs_names_for_inputs_in_memory(tmp_path: Path) -> None:
    store = tmp_path / "store.sqlite"
    with pytest.raises(ArgumentError, match=r"name it with system=$") as caught:
        evaluate_run(RUN, QRELS, record=True, store=store)
    assert caught.value.parameter == "system"
    with pytest.raises(ArgumentError, match=r"name it with dataset=$"):
        evaluate_run(RUN, QRELS, record=True, system="bm25", store=store)
    assert not store.exists()  # refused before anything was scored or opened
    evaluate_run(RUN, QRELS, record=True, system="bm25", dataset="toy", store=store)
    with open_store(store) as opened:
        assert [(r.system, r.dataset) for r in opened.records()] == [("bm25", "toy")]


def test_evaluate_retrieval_records_under_the_names_given(tmp_path: Path) -> None:
    store = tmp_path / "store.sqlite"
    queries = {"q1": "one", "q2": "two"}

    def retriever(query: str, *, limit: int = 10) -> list[str]:
        return {"one": ["d1", "d2"], "two": ["d3"]}[query]

    with pytest.raises(ArgumentError, match="system="):
        evaluate_retrieval(retriever, QRELS, queries, record=True, store=store)
    report = evaluate_retrieval(
        retriever, QRELS, queries, record=True, system="lookup", dataset="toy", store=store
    )
    with open_store(store) as opened:
        assert opened.last("lookup", "toy").report == report  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("qrels", "expected"),
    [
        ("irds:beir/scifact/test", "beir/scifact/test"),
        ("data/scifact", "scifact"),
        ("data/scifact/qrels/test.tsv", "scifact/test"),
        ("robust04/qrels.txt", "robust04"),
        ("robust04/qrels.robust2004.txt.gz", "qrels.robust2004"),
        ("s3://bucket/msmarco/qrels.dev.tsv", "qrels.dev"),
        ("test.tsv", "test"),
        ({"q1": {"d1": 1}}, None),
    ],
)
def test_dataset_names(qrels: object, expected: str | None) -> None:
    assert dataset_name(qrels) == expected


def test_system_names() -> None:
    assert system_name("runs/bm25.run.gz") == "bm25"
    assert system_name(Path("x/dense-e5.trec")) == "dense-e5"
    assert system_name(["a.trec", "b.trec"]) is None  # shards: name them
    assert system_name(RUN) is None


def test_the_commit_is_the_checkout_s_and_none_outside_a_repository(tmp_path: Path) -> None:
    assert git_commit(tmp_path) is None
    git = ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    assert git_commit(tmp_path) is None  # no commit yet
    subprocess.run([*git, "commit", "-q", "--allow-empty", "-m", "x"], check=True)
    head = subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True, text=True)
    assert git_commit(tmp_path) == head.stdout.strip()


def test_the_recorded_commit_is_the_working_directory_s(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no repository here
    evaluate_run(RUN, QRELS, record=True, system="a", dataset="b", store="s.sqlite")
    with open_store("s.sqlite") as opened:
        assert opened.records()[0].commit is None


def test_the_default_store_follows_xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_path() == tmp_path / "xdg" / "ef-evaluation" / "store.sqlite"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_path() == tmp_path / ".local" / "share" / "ef-evaluation" / "store.sqlite"
    monkeypatch.delenv(ENVIRONMENT, raising=False)
    evaluate_run(RUN, QRELS, record=True, system="a", dataset="b")
    assert default_path().exists()


def test_store_urls() -> None:
    assert where("sqlite:///rel/s.sqlite") == ("sqlite", "rel/s.sqlite")
    assert where("sqlite:////abs/s.sqlite") == ("sqlite", "/abs/s.sqlite")
    assert where("/abs/s.sqlite") == ("sqlite", "/abs/s.sqlite")
    assert where("postgres://h/db") == ("postgresql", "postgres://h/db")
    with pytest.raises(ValueError, match=r"sqlite:///path/to/store\.sqlite"):
        where("sqlite://host/s.sqlite")


def _ef_eval(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), prog_name="ef-eval")
    return result.exit_code, result.stdout, result.stderr


def test_the_cli_records_and_reads_back(tmp_path: Path, files: tuple[Path, Path]) -> None:
    store = str(tmp_path / "cli.sqlite")
    run, qrels = files
    code, out, err = _ef_eval("evaluate", str(qrels), str(run), "--store", store, "-o", "json")
    assert code == 0, err
    assert not Path(store).exists()
    code, out, err = _ef_eval(
        "evaluate", str(qrels), str(run), "--record", "--store", store, "--tag", "a", "-o", "json"
    )
    assert code == 0, err
    assert f"note: recorded bm25 on toy/test (record 1) in {store}" in err
    metrics = json.loads(out)["metrics"]
    code, _, err = _ef_eval(
        "evaluate", str(qrels), str(run), "--record", "--store", store, "--system", "other",
        "--dataset", "toy/test", "-m", "ndcg@10", "-m", "P@1",
    )  # fmt: skip
    assert code == 0, err
    with open_store(store) as opened:
        records = opened.records()
    assert [(r.system, r.tags) for r in records] == [("bm25", ("a",)), ("other", ())]
    assert dict(records[0].report.metrics) == metrics

    code, out, err = _ef_eval("history", "nDCG@10", "--store", store, "-o", "json")
    assert code == 0, err
    rows = json.loads(out)["rows"]
    assert [(row["system"], row["value"]) for row in rows] == [
        ("bm25", metrics["ndcg@10"]),
        ("other", records[1].report.metrics["ndcg@10"]),
    ]
    code, out, err = _ef_eval(
        "leaderboard", "toy/test", "precision@1", "--store", store, "-o", "csv"
    )
    assert code == 0, err
    # The same run twice: a tie, ranked by name.
    assert [line.split(",")[:3] for line in out.splitlines()[1:]] == [
        ["1", "bm25", repr(metrics["precision@1"])],
        ["2", "other", repr(metrics["precision@1"])],
    ]
    code, out, err = _ef_eval("history", "ndgc@10", "--store", store)
    assert code == 2
    assert "did you mean 'ndcg@10'" in err


def test_the_cli_refuses_to_record_a_nameless_system(tmp_path: Path, files) -> None:
    run, qrels = files
    shards = [str(run), str(run.with_name("more.trec"))]
    run.with_name("more.trec").write_text("q9 Q0 d1 1 1.0 x\n")
    code, _, err = _ef_eval(
        "evaluate", str(qrels), *shards, "--record", "--store", str(tmp_path / "s.sqlite")
    )
    assert code == 2
    assert "name it with --system" in err
    assert not (tmp_path / "s.sqlite").exists()


def test_psycopg_is_imported_for_a_postgresql_url_only(tmp_path: Path) -> None:
    probe = (
        "import sys; from ef.evaluation import open_store, evaluate_run; "
        f"open_store({str(tmp_path / 's.sqlite')!r}).close(); "
        "print(any(m.split('.')[0] in ('psycopg', 'psycopg_binary') for m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_a_recorded_evaluation_warns_from_the_caller_s_line(tmp_path: Path) -> None:
    # Recording adds no frame between the caller and the checks that warn.
    with pytest.warns(InputWarning, match="answers only 1 of the 3") as caught:
        evaluate_run(
            {"q1": {"d1": 1.0}},
            {"q1": {"d1": 1}, "q2": {"d2": 1}, "q3": {"d3": 1}},
            record=True,
            system="a",
            dataset="b",
            store=tmp_path / "s.sqlite",
        )
    assert {warning.filename for warning in caught} == {__file__}
