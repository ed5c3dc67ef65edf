"""evaluate_rag() (issue 16): normalisation modes in metric strings, several gold answers
(``references``), unanswered samples, and non_empty_rate over every sample."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ef.evaluation import (
    InvalidSampleError,
    RagEvalReport,
    UnknownNameError,
    compare,
    evaluate_rag,
    load_report,
    read_samples,
    save_report,
    write_samples,
)
from ef.evaluation.cli import cli

EIFFEL = {"id": "e", "response": "«The Eiffel Tower!»", "reference": "eiffel tower"}


# -- normalisation modes in metric strings ----------------------------------------------------


def test_a_mode_is_a_parameter_of_the_metric_string_and_shows_in_the_key(builtin_registry) -> None:
    report = evaluate_rag(
        [EIFFEL],
        metrics=["exact_match", "exact_match(normalize=squad)", "token_f1(normalize='squad')"],
        registry=builtin_registry,
    )
    assert dict(report.metrics) == {
        "exact_match": 1.0,
        "exact_match(normalize='squad')": 0.0,
        "token_f1(normalize='squad')": pytest.approx(0.4),
    }
    entry = report.manifest["metrics"][1]
    assert (entry["name"], dict(entry["params"])) == (
        "exact_match",
        {"normalize": "squad", "lang": None, "abstain": None},
    )


def test_the_default_mode_spelt_out_is_the_bare_name(builtin_registry) -> None:
    report = evaluate_rag(
        [EIFFEL],
        metrics=["token_f1", "token_f1(normalize=unicode)", " token_f1() "],
        registry=builtin_registry,
    )
    assert list(report.metrics) == ["token_f1"]


def test_mlqa_takes_its_language(builtin_registry) -> None:
    sample = {"response": "北京是中国的首都", "reference": "北京", "retrieved_contexts": ["北京"]}
    report = evaluate_rag(
        [sample],
        metrics=[
            "token_f1(normalize=mlqa, lang=zh)",
            "token_f1(normalize=mlqa, lang=en)",
            "context_recall(normalize=squad)",
            "context_recall",
        ],
        registry=builtin_registry,
    )
    assert dict(report.metrics) == {
        "token_f1(normalize='mlqa',lang='zh')": pytest.approx(0.4),
        "token_f1(normalize='mlqa',lang='en')": 0.0,
        "context_recall(normalize='squad')": 1.0,  # 北京 is the whole context, one token
        "context_recall": 1.0,
    }


def test_a_key_reads_back_as_the_same_metric(builtin_registry) -> None:
    first = evaluate_rag(
        [EIFFEL], metrics=["token_f1(normalize=mlqa,lang=de)"], registry=builtin_registry
    )
    (key,) = first.metrics
    again = evaluate_rag([EIFFEL], metrics=[key], registry=builtin_registry)
    assert list(again.metrics) == [key]


@pytest.mark.parametrize(
    ("spec", "error", "message"),
    [
        (
            "token_f1(normalize=squad1)",
            ValueError,
            r"'token_f1\(normalize=squad1\)': token_f1's parameter 'normalize' must be one of "
            r"'unicode', 'squad', 'squad_v2', 'mlqa', got 'squad1'",
        ),
        (
            "token_f1(normalise=squad)",
            UnknownNameError,
            r"RAG metric 'token_f1' has no parameter 'normalise'; did you mean 'normalize'\? "
            r"Its parameters: normalize, lang, abstain\.",
        ),
        (
            "exact_match(normalize=mlqa)",
            ValueError,
            r"normalize='mlqa' needs lang=, one of en, es, hi, vi, de, ar, zh",
        ),
        (
            "exact_match(normalize=mlqa, lang=fr)",
            ValueError,
            r"parameter 'lang' must be one of 'en', 'es', 'hi', 'vi', 'de', 'ar', 'zh', got 'fr'",
        ),
        ("token_f1(lang=zh)", ValueError, r"lang= applies to normalize='mlqa' only"),
        ("non_empty_rate(normalize=squad)", UnknownNameError, r"Its parameters: none\."),
        ("token_f1@5", ValueError, r"the RAG metric 'token_f1' takes no cutoff"),
        ("token_f1(squad)", ValueError, r"parameters are name=value pairs"),
    ],
)
def test_bad_metric_strings_say_what_is_valid(builtin_registry, spec, error, message) -> None:
    with pytest.raises(error, match=message):
        evaluate_rag([EIFFEL], metrics=[spec], registry=builtin_registry)


def test_the_cli_takes_metric_strings_with_parameters(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    write_samples(path, [EIFFEL])
    result = CliRunner().invoke(
        cli,
        ["rag", str(path), "-m", "token_f1(normalize=mlqa,lang=en),exact_match(normalize=squad)",
         "-o", "json"],
        prog_name="ef-eval",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["metrics"] == {
        "token_f1(normalize='mlqa',lang='en')": 1.0,
        "exact_match(normalize='squad')": 0.0,
    }
    bad = CliRunner().invoke(cli, ["rag", str(path), "-m", "token_f1(normalize=v3)"])
    assert bad.exit_code != 0
    assert "must be one of 'unicode', 'squad', 'squad_v2', 'mlqa'" in bad.output


def test_compare_reads_rag_metric_strings_as_report_keys(builtin_registry) -> None:
    a = [{"id": str(i), "response": "Paris", "reference": "paris"} for i in range(6)]
    b = [{"id": str(i), "response": "«Paris»", "reference": "paris"} for i in range(6)]
    metrics = ["exact_match(normalize=squad)"]
    reports = {
        name: evaluate_rag(samples, metrics=metrics, registry=builtin_registry)
        for name, samples in (("a", a), ("b", b))
    }
    comparison = compare(reports, metrics=metrics, test="randomization", seed=1)
    assert comparison.metrics == ("exact_match(normalize='squad')",)
    assert comparison.means["a"]["exact_match(normalize='squad')"] == 1.0
    assert comparison.means["b"]["exact_match(normalize='squad')"] == 0.0


# -- several gold answers -----------------------------------------------------------------------


def test_em_and_f1_are_the_best_over_reference_and_references(builtin_registry) -> None:
    samples = [
        {"id": "s1", "response": "the City of Light", "reference": "Paris",
         "references": ["City of Light", "Paname"]},
        {"id": "s2", "response": "Paris, France", "references": ["Lyon", "Paris"]},
        {"id": "s3", "response": "Paris", "reference": "Lyon", "references": []},
    ]  # fmt: skip
    report = evaluate_rag(samples, metrics=["exact_match", "token_f1"], registry=builtin_registry)
    assert report.per_sample["exact_match"] == (1.0, 0.0, 0.0)
    assert report.per_sample["token_f1"] == pytest.approx((1.0, 2 / 3, 0.0))


def test_context_metrics_use_every_gold_answer(builtin_registry) -> None:
    sample = {"reference": "Marseille", "references": ["Paris France"],
              "retrieved_contexts": ["Paris is big.", "France too.", "Nothing."]}  # fmt: skip
    report = evaluate_rag(
        [sample], metrics=["context_recall", "context_precision"], registry=builtin_registry
    )
    assert report.metrics["context_recall"] == 1.0  # the best recalled gold answer
    assert report.metrics["context_precision"] == pytest.approx(2 / 3)


def test_squad_v2_drops_gold_answers_that_normalise_to_nothing(builtin_registry) -> None:
    # v2.0's get_raw_scores: "" among the golds is dropped when a real answer is there.
    sample = {"response": "the", "reference": "", "references": ["Paris"]}
    report = evaluate_rag(
        [sample], metrics=["exact_match", "exact_match(normalize=squad_v2)"],
        registry=builtin_registry,
    )  # fmt: skip
    assert dict(report.metrics) == {"exact_match": 1.0, "exact_match(normalize='squad_v2')": 0.0}


@pytest.mark.parametrize(
    ("references", "message"),
    [
        ("Paris", r"sample 1 \(id 'q2'\): 'references' must be a list of strings, got str"),
        (["Paris", 3], r"sample 1 \(id 'q2'\): references\[1\] must be a string, got int 3"),
        ({"a": "b"}, r"sample 1 \(id 'q2'\): 'references' must be a list of strings, got dict"),
    ],
)
def test_malformed_references_name_the_sample_id(builtin_registry, references, message) -> None:
    samples = [EIFFEL, {"id": "q2", "response": "x", "reference": "y", "references": references}]
    with pytest.raises(InvalidSampleError, match=message):
        evaluate_rag(samples, registry=builtin_registry)


def test_a_list_in_reference_points_to_references(builtin_registry) -> None:
    with pytest.raises(
        InvalidSampleError,
        match=r"sample 0: 'reference' must be a string, got list \['a', 'b'\]; put further "
        r"gold answers in 'references'",
    ):
        evaluate_rag([{"response": "a", "reference": ["a", "b"]}], registry=builtin_registry)


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_samples_files_keep_references(tmp_path: Path, suffix: str, builtin_registry) -> None:
    samples: list[dict[str, Any]] = [
        {"id": "s1", "response": "Paname", "reference": "Paris", "references": ["Paname", "Lutèce"]},
        {"id": "s2", "response": "Lyon", "reference": "Lyon"},
    ]  # fmt: skip
    path = tmp_path / f"samples{suffix}"
    write_samples(path, samples)
    assert read_samples(path) == samples
    report = evaluate_rag(path, metrics=["exact_match"], registry=builtin_registry)
    assert report.per_sample["exact_match"] == (1.0, 1.0)


def test_a_csv_references_cell_is_a_json_array(tmp_path: Path) -> None:
    path = tmp_path / "s.csv"
    path.write_text('response,reference,references\nParis,Lyon,"[""Paris""]"\n')
    assert read_samples(path) == [
        {"response": "Paris", "reference": "Lyon", "references": ["Paris"]}
    ]


# -- unanswered samples -----------------------------------------------------------------------------

ANSWERS: list[dict[str, Any]] = [
    {"id": "ok", "response": "Paris", "reference": "Paris", "retrieved_contexts": ["Paris."]},
    {"id": "none", "reference": "Paris", "retrieved_contexts": ["Paris."]},
    {"id": "blank", "response": " \n", "reference": "Paris"},
    {"id": "empty", "response": "", "references": ["Paris"]},
    {"id": "no-gold", "response": "Paris"},
]


def test_a_sample_with_a_gold_answer_and_no_response_scores_0(builtin_registry) -> None:
    report = evaluate_rag(ANSWERS, registry=builtin_registry)
    assert report.per_sample["exact_match"] == (1.0, 0.0, 0.0, 0.0, None)
    assert report.per_sample["token_f1"] == (1.0, 0.0, 0.0, 0.0, None)
    assert report.metrics["exact_match"] == 0.25
    assert report.coverage["exact_match"] == 4
    assert report.unanswered == ("none", "blank", "empty")
    # The context metrics need no response: the unanswered sample with contexts is scored.
    assert report.per_sample["context_recall"] == (1.0, 1.0, None, None, None)


def test_blank_against_blank_is_unanswered_not_a_match(builtin_registry) -> None:
    # Without the rule the default would call "" == "" a match (and F1 1.0, v2.0's rule).
    report = evaluate_rag([{"response": "", "reference": ""}], registry=builtin_registry)
    assert (report.metrics["exact_match"], report.metrics["token_f1"]) == (0.0, 0.0)
    assert report.unanswered == ("0",)


def test_squad_v2_scores_a_blank_response_as_its_no_answer(builtin_registry) -> None:
    # SQuAD v2.0: "" is the prediction "no answer", right for an unanswerable question.
    samples = [
        {"id": "abstains", "response": "", "reference": ""},
        {"id": "abstains-wrongly", "response": "", "reference": "Paris"},
        {"id": "missing", "reference": ""},
    ]
    report = evaluate_rag(
        samples,
        metrics=["exact_match(normalize=squad_v2)", "token_f1(normalize=squad_v2)"],
        registry=builtin_registry,
    )
    assert report.per_sample["exact_match(normalize='squad_v2')"] == (1.0, 0.0, 0.0)
    assert report.per_sample["token_f1(normalize='squad_v2')"] == (1.0, 0.0, 0.0)
    assert report.unanswered == ("abstains", "abstains-wrongly", "missing")


def test_every_output_lists_the_unanswered_samples(builtin_registry) -> None:
    report = evaluate_rag(ANSWERS, metrics=["exact_match"], registry=builtin_registry)
    note = (
        "Unanswered (a gold answer but no response, or a blank one): 3 samples: none, blank, empty."
    )
    assert note in str(report).splitlines()
    assert "3 unanswered" in repr(report)
    assert report.tables()[0].notes == (note,)
    assert note in report.to_markdown()
    assert "Unanswered (a gold answer but no response, or a blank one): 3 samples" in (
        report._repr_html_()
    )
    assert json.loads(report.to_json())["unanswered"] == ["none", "blank", "empty"]


def test_the_cli_shows_the_unanswered_samples_and_csv_sends_them_to_stderr(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    write_samples(path, ANSWERS[:2])
    note = "Unanswered (a gold answer but no response, or a blank one): 1 sample: none."
    table = CliRunner().invoke(cli, ["rag", str(path), "-m", "exact_match"])
    assert note in table.output
    csv = CliRunner().invoke(cli, ["rag", str(path), "-m", "exact_match", "-o", "csv"])
    assert csv.stdout == "metric,mean,coverage\nexact_match,0.5,2/2\n"
    assert csv.stderr == f"note: {note}\n"


def test_a_report_with_unanswered_samples_survives_dict_and_file_round_trips(
    tmp_path: Path, builtin_registry
) -> None:
    report = evaluate_rag(ANSWERS, registry=builtin_registry)
    again = RagEvalReport.from_dict(json.loads(report.to_json()))
    assert again == report
    assert again.unanswered == ("none", "blank", "empty")
    loaded = load_report(save_report(report, tmp_path / "rag.json"))
    assert loaded == report


def test_a_report_without_unanswered_samples_has_no_note(builtin_registry) -> None:
    report = evaluate_rag(ANSWERS[:1], registry=builtin_registry)
    assert report.unanswered == ()
    assert report.tables()[0].notes == ()
    assert "Unanswered" not in str(report)


# -- non_empty_rate over every sample -------------------------------------------------------------


def test_non_empty_rate_counts_a_sample_without_retrieved_contexts_as_0(builtin_registry) -> None:
    samples: list[dict[str, Any]] = [
        {"retrieved_contexts": ["a"]},
        {"retrieved_contexts": []},
        {"response": "no contexts key"},
        {"retrieved_contexts": None},
    ]
    report = evaluate_rag(samples, metrics=["non_empty_rate"], registry=builtin_registry)
    assert report.per_sample["non_empty_rate"] == (1.0, 0.0, 0.0, 0.0)
    assert (report.metrics["non_empty_rate"], report.coverage["non_empty_rate"]) == (0.25, 4)
