"""Diversity measures like every other metric: through evaluate_run and ef-eval evaluate,
against subtopic qrels (a value, or a file named or detected), mixed with ordinary measures
(read on each doc's largest grade), in reports that compare, save and load."""

from __future__ import annotations

import json
import warnings
from collections import namedtuple
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from ef.evaluation import (
    DatasetFormatError,
    InputWarning,
    RetrievalEvalReport,
    SubtopicQrels,
    compare,
    evaluate_diversity,
    evaluate_run,
)
from ef.evaluation._engine._diversity import parse_diversity_measures, score_diversity
from ef.evaluation.cli import cli
from ef.evaluation.compat import ir_measures as shim
from ef.evaluation.types import Averaging

from ..profiles_hypothesis import examples

QRELS = "51 1 a 1\n51 2 b 1\n51 2 c 1\n51 1 c 0\n52 1 d 1\n52 3 e 2\n52 3 d 0\n"
RUN = "51 Q0 c 1 3 r\n51 Q0 a 2 2 r\n51 Q0 b 3 1 r\n52 Q0 e 1 5 r\n52 Q0 d 2 5 r\n"
DIVERSE = ["alpha_nDCG@2", "ERR-IA@2", "NRBP", "AP_IA", "P_IA@2", "StRecall@1", "nNRBP"]
ORDINARY = ["ndcg@2", "P@1", "map@all", "recip_rank"]


def _files(tmp_path: Path, qrels: str = QRELS) -> tuple[Path, Path]:
    q, r = tmp_path / "qrels.diversity.txt", tmp_path / "run.trec"
    q.write_text(qrels, encoding="utf-8")
    r.write_text(RUN, encoding="utf-8")
    return q, r


DOCS = [f"d{i}" for i in range(8)]
records = st.lists(
    st.tuples(
        st.sampled_from(["q1", "q2", "q3"]),
        st.sampled_from(["1", "2", "3"]),
        st.sampled_from(DOCS),
        st.sampled_from([0, 1, 1, 2]),  # a query with no relevant doc now and then
    ),
    min_size=1,
    max_size=25,
    unique_by=lambda r: r[:3],
)
runs = st.dictionaries(
    st.sampled_from(["q1", "q2", "q3"]),
    st.dictionaries(st.sampled_from([*DOCS, "u1", "u2"]), st.integers(0, 4).map(float), min_size=1),
    min_size=1,
)


@settings(max_examples=examples(250), deadline=None)
@given(records, runs, st.sampled_from(["qrels", "intersection", "run"]))
def test_a_mixed_report_holds_what_each_kind_gives_alone(
    records: list[tuple[str, str, str, int]], run: dict[str, dict[str, float]], averaging: Averaging
) -> None:
    """The ordinary measures equal evaluate_run's on the largest grades; the diversity
    measures equal the engine's ndeval scoring of the same rankings; one report holds both,
    or is refused where the two kinds count different queries."""
    qrels = SubtopicQrels.from_records(records)
    flat = qrels.max_grades()
    both = [*DIVERSE, *ORDINARY]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)
        try:
            ordinary = evaluate_run(
                run, flat, metrics=ORDINARY, averaging=averaging, check_doc_ids=False
            )
        except ValueError:
            return  # nothing to score: evaluate_run's own refusals (tested elsewhere)
        # ndeval counts a judged query with no relevant doc; trec_eval's rules may skip it.
        counted = set(flat) if averaging == "qrels" else {q for q in run if flat.get(q)}
        if counted != set(ordinary.per_query):
            with pytest.raises(ValueError, match="has no relevant judgement"):
                evaluate_run(run, qrels, metrics=both, averaging=averaging, check_doc_ids=False)
            assert averaging != "run"
            return
        mixed = evaluate_run(run, qrels, metrics=both, averaging=averaging, check_doc_ids=False)
    assert list(mixed.metrics) == [
        *(s.key for s in parse_diversity_measures(DIVERSE, ())),
        *ordinary.metrics,
    ]
    assert set(mixed.per_query) == set(ordinary.per_query)
    for key in ordinary.metrics:
        assert mixed.metrics[key] == ordinary.metrics[key]
        for query_id, values in ordinary.per_query.items():
            assert mixed.per_query[query_id][key] == values[key]
    specs = parse_diversity_measures(DIVERSE, ())
    rankings = {
        q: sorted(run.get(q, {}), key=lambda d: (-run[q][d], [-ord(c) for c in d]))
        for q in mixed.per_query
    }
    theirs = score_diversity(rankings, qrels.judgements, specs)
    for spec in specs:
        for query_id in mixed.per_query:
            assert mixed.per_query[query_id][spec.key] == theirs[query_id][spec.key]
        column = [theirs[q][spec.key] for q in mixed.per_query]
        assert mixed.metrics[spec.key] == pytest.approx(sum(column) / len(column), abs=1e-12)
    assert mixed.manifest["notes"]
    assert mixed.manifest["qrels_format"] == "subtopics"


def test_a_query_with_no_relevant_judgement_in_a_mixed_report() -> None:
    qrels = {"q1": {"1": {"a": 1}, "2": {"b": 1}}, "q2": {"1": {"c": 0}}}
    run = {"q1": {"a": 2.0, "b": 1.0}, "q2": {"c": 1.0}}
    with pytest.raises(ValueError, match=r"query 'q2' has no relevant judgement.*averaging='run'"):
        evaluate_run(run, qrels, metrics=["alpha_nDCG@2", "ndcg@2"])
    report = evaluate_run(run, qrels, metrics=["alpha_nDCG@2", "ndcg@2"], averaging="run")
    assert report.per_query["q2"] == {"alpha_ndcg@2": 0.0, "ndcg@2": 0.0}
    alone = evaluate_run(run, qrels, metrics=["alpha_nDCG@2"])  # ndeval -c: q2 counts, as 0
    assert alone.metrics == {"alpha_ndcg@2": 0.5}


def test_diversity_through_the_three_entry_points_gives_one_report(tmp_path: Path) -> None:
    qrels, run = _files(tmp_path)
    by_file = evaluate_run(run, qrels, metrics=DIVERSE)  # detected: c is judged for 1 and 2
    named = evaluate_run(run, qrels, metrics=DIVERSE, qrels_format="subtopics")
    value = evaluate_run(run, SubtopicQrels.read(qrels), metrics=DIVERSE)
    wrapper = evaluate_diversity(run, qrels, metrics=DIVERSE)
    assert by_file == named == value == wrapper
    assert by_file.manifest["inputs"]["qrels"]["sha256"]
    result = CliRunner().invoke(
        cli, ["evaluate", str(qrels), str(run), "-m", ",".join(DIVERSE), "-o", "json", "-q"]
    )
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    assert printed["metrics"] == dict(by_file.metrics)
    assert printed["per_query"] == {q: dict(v) for q, v in by_file.per_query.items()}


def test_the_cli_mixes_and_notes_the_grades_read(tmp_path: Path) -> None:
    qrels, run = _files(tmp_path)
    args = ["evaluate", str(qrels), str(run), "-m", "alpha_nDCG@2,ndcg@2", "-o", "csv"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "largest grade over the query's subtopics" in result.stderr
    report = evaluate_run(run, qrels, metrics=["alpha_nDCG@2", "ndcg@2"])
    assert "largest grade over the query's subtopics" in str(report)
    flat = evaluate_run(run, SubtopicQrels.read(qrels).max_grades(), metrics=["ndcg@2"])
    assert report.metrics["ndcg@2"] == flat.metrics["ndcg@2"]


def test_ordinary_measures_alone_need_the_format_named(tmp_path: Path) -> None:
    """As trec_eval ("duplicate docs"), the ordinary reader refuses a doc judged twice; its
    message says how to read the file as subtopic qrels."""
    qrels, run = _files(tmp_path)
    with pytest.raises(DatasetFormatError, match="qrels_format='subtopics'"):
        evaluate_run(run, qrels, metrics=["ndcg@2"])
    report = evaluate_run(run, qrels, metrics=["ndcg@2"], qrels_format="subtopics")
    assert report.manifest["notes"]
    result = CliRunner().invoke(cli, ["evaluate", str(qrels), str(run), "-m", "ndcg@2"])
    assert result.exit_code != 0
    assert "--qrels-format subtopics" in result.output


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("51 0 a 1\n51 0 b 1\n52 0 d 1\n", "column 2 is 0 on every line"),
        ("51 Q0 a 1\n52 Q0 d 1\n", "column 2 is Q0 on every line"),
        # TREC-COVID keeps the judging round in column 2: never a subtopic unless named.
        ("51 1 a 1\n51 2 b 1\n51 4.5 c 0\n52 3 d 1\n", "no doc is judged for two subtopics"),
    ],
)
def test_detection_never_reads_ordinary_qrels_as_subtopics(
    tmp_path: Path, text: str, message: str
) -> None:
    qrels, run = _files(tmp_path, text)
    with pytest.raises(DatasetFormatError, match=message):
        evaluate_run(run, qrels, metrics=["alpha_nDCG@2"])
    result = CliRunner().invoke(cli, ["evaluate", str(qrels), str(run), "-m", "alpha_nDCG@2"])
    assert result.exit_code != 0
    assert "--qrels-format subtopics" in result.output
    # Ordinary measures read them as they always have.
    assert evaluate_run(run, qrels, metrics=["P@1"]).metrics


def test_ordinary_qrels_in_memory_are_refused_with_a_diversity_measure() -> None:
    with pytest.raises(ValueError, match="a diversity measure needs subtopic qrels"):
        evaluate_run({"q": {"a": 1.0}}, {"q": {"a": 1}}, metrics=["NRBP"])


def test_what_subtopic_qrels_cannot_be_scored_with(tmp_path: Path) -> None:
    qrels = {"q1": {"1": {"a": 1}, "2": {"b": 1}}}
    run = {"q1": {"a": 1.0, "b": 1.0}}
    with pytest.raises(ValueError, match=r"profile='ir_measures'.*docno_asc"):
        evaluate_run(run, qrels, metrics=["NRBP"], profile="ir_measures")
    with pytest.raises(ValueError, match="tie_policy='expected'"):
        evaluate_run(run, qrels, metrics=["NRBP"], tie_policy="expected")
    with pytest.raises(ValueError, match="not shards"):
        evaluate_run([tmp_path / "a.trec", tmp_path / "b.trec"], qrels, metrics=["NRBP"])
    # Ties: doc id descending by default (b first), ascending under docno_asc (a first).
    down = evaluate_run(run, qrels, metrics=["StRecall@1"]).per_query["q1"]
    up = evaluate_run(run, qrels, metrics=["StRecall@1"], tie_policy="docno_asc")
    assert down == up.per_query["q1"] == {"subtopic_recall@1": 0.5}
    rbp = evaluate_run(run, qrels, metrics=["alpha_DCG@1", "ndcg@1"], tie_policy="docno_asc")
    assert rbp.metrics == {"alpha_dcg@1": 0.5, "ndcg@1": 1.0}


def test_compare_and_saved_reports_carry_diversity_measures(tmp_path: Path) -> None:
    qrels, run = _files(tmp_path)
    other = tmp_path / "other.trec"
    other.write_text("51 Q0 a 1 3 r\n51 Q0 b 2 2 r\n52 Q0 d 1 5 r\n52 Q0 e 2 4 r\n", "utf-8")
    measures = ["alpha_nDCG@2", "NRBP", "ndcg@2"]
    reports = {
        "one": evaluate_run(run, qrels, metrics=measures),
        "two": evaluate_run(other, qrels, metrics=measures),
    }
    names = ["alpha_nDCG@2", "nrbp", "ndcg@2"]
    from_reports = compare(reports, metrics=names, test="paired-t")
    from_runs = compare({"one": run, "two": other}, qrels, metrics=names, test="paired-t")
    for result in (from_reports, from_runs):
        pairs = {c.metric: c for c in result.comparisons}
        assert set(pairs) == {"alpha_ndcg@2", "nrbp", "ndcg@2"}
        for key, pair in pairs.items():
            assert pair.mean_b - pair.mean_a == pytest.approx(
                reports["two"].metrics[key] - reports["one"].metrics[key], abs=1e-12
            )
    saved = json.loads(json.dumps(reports["one"].to_dict()))
    loaded = RetrievalEvalReport.from_dict(saved)
    assert loaded == reports["one"]
    assert (
        loaded.metric("alpha_nDCG@2")
        == loaded.metric("alpha-nDCG@2")
        == loaded.metrics["alpha_ndcg@2"]
    )
    assert loaded.metric("NRBP", "51") == reports["one"].per_query["51"]["nrbp"]
    with pytest.raises(KeyError, match="alpha_ndcg@5 in ef-evaluation's spelling"):
        loaded.metric("alpha_nDCG@5")


def test_the_ir_measures_shim_scores_diversity_as_pyndeval_ranks() -> None:
    Qrel = namedtuple("Qrel", ["query_id", "doc_id", "relevance", "iteration"])
    qrels = [Qrel("q1", "a", 1, "1"), Qrel("q1", "b", 1, "2"), Qrel("q2", "c", 1, "1")]
    run = {"q1": {"a": 1.0, "b": 1.0}}  # tied: a first, as pyndeval sorts them
    measures = [shim.alpha_nDCG @ 1, shim.StRecall @ 1, shim.NRBP]
    values = shim.calc_aggregate(measures, qrels, run)
    report = evaluate_run(
        run,
        SubtopicQrels.from_records(
            [(q.query_id, q.iteration, q.doc_id, q.relevance) for q in qrels]
        ),
        metrics=["alpha_nDCG@1", "StRecall@1", "NRBP"],
        tie_policy="docno_asc",
        check_doc_ids=False,
    )
    assert values == {m: report.metrics[k] for m, k in zip(measures, report.metrics, strict=True)}
    per_query = list(shim.iter_calc([shim.StRecall @ 1], qrels, run))
    assert [(m.query_id, m.value) for m in per_query] == [("q1", 0.5), ("q2", 0.0)]
    with pytest.raises(ValueError, match="score them in two calls"):
        shim.calc_aggregate([shim.NRBP, shim.nDCG @ 1], qrels, run)
    with pytest.raises(ValueError, match="needs a cutoff"):
        shim.parse_measure("ERR_IA")
    with pytest.raises(TypeError, match="fields query_id, iteration, doc_id, relevance"):
        shim.calc_aggregate([shim.NRBP], [("q1", "a", 1)], run)
    with pytest.raises(TypeError, match="need subtopic qrels"):
        shim.calc_aggregate([shim.NRBP], 3, run)


def test_a_warning_points_at_the_caller() -> None:
    qrels = {f"q{i}": {"1": {"a": 1}, "2": {"b": 1}} for i in range(3)}
    with pytest.warns(InputWarning) as caught:  # one query of three
        evaluate_run({"q0": {"a": 1.0}}, qrels, metrics=["NRBP"])
    with pytest.warns(InputWarning) as more:
        evaluate_run({"q0": {"x": 1.0}}, qrels, metrics=["NRBP"], check_doc_ids="warn")
    messages = [str(w.message) for w in [*caught, *more]]
    assert any("the run answers only 1 of the 3" in m for m in messages)
    assert any("no scored query retrieves a judged doc" in m for m in messages)
    assert {Path(w.filename) for w in [*caught, *more]} == {Path(__file__)}
