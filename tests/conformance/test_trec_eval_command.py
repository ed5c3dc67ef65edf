"""``ef-eval trec_eval`` prints trec_eval's own expected outputs byte for byte.

The expected outputs are trec_eval's test files (``../shared/validation/trec_eval``: 10.0 at
the top, 9.0.8 in ``v9.0.8/``, each made by the command in its README) and the outputs of the
C trec_eval on CACM and SciFact (``../shared/validation/generated``). Every line must be the
same, in the same order: names, padding, values, ``runid``, ``num_q``, the per-query rows.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ef.evaluation.cli._trec_eval import trec_eval_command

from ..conftest import shared_path

#: The options of trec_eval's test/out.test.meas_params (its Makefile's quicktest).
MEAS_PARAMS = [
    "-q",
    "-miprec_at_recall..10,.20,.25,.75,.50",
    "-m",
    "P.5,7,3",
    "-m",
    "recall.20,2000",
    "-m",
    "Rprec_mult.5.0,0.2,0.35",
    "-mutility.2,-1,0,0",
    "-m",
    "11pt_avg..25,.5,.75",
    "-mndcg.1=3,2=9,4=4.5",
    "-mndcg_cut.10,20,23.4",
    "-msuccess.2,5,20",
]

#: (expected output, options, qrels, run) in trec_eval's test folder, both versions.
QUICKTEST: list[tuple[str, list[str], str, str]] = [
    ("out.test", [], "qrels.test", "results.test"),
    ("out.test.a", ["-m", "all_trec"], "qrels.test", "results.test"),
    ("out.test.aq", ["-m", "all_trec", "-q"], "qrels.test", "results.test"),
    ("out.test.aqc", ["-m", "all_trec", "-q", "-c"], "qrels.test", "results.trunc"),
    ("out.test.aqcM", ["-m", "all_trec", "-q", "-c", "-M100"], "qrels.test", "results.trunc"),
    (
        "out.test.aql",
        ["-m", "all_trec", "-mrelstring.20", "-q", "-l2"],
        "qrels.rel_level",
        "results.test",
    ),
    ("out.test.meas_params", MEAS_PARAMS, "qrels.test", "results.test"),
    ("out.test.aqZ", ["-q", "-m", "all_trec", "-Z", "zscores_file"], "qrels.test", "results.test"),
]

#: trec_eval 10.0 only: "#" comment lines (a "#" inside a docno is data).
COMMENTS: list[tuple[str, list[str], str, str]] = [
    ("out.test", [], "qrels.test.with-comments", "results.test"),
    ("out.comment.test", [], "qrels.comment.test", "results.comment.test"),
]

_SCIFACT_RUN = ("datasets", "scifact-runs", "run.scifact.test.bm25s-lucene-{}.txt.gz")
_SCIFACT_QRELS = ("datasets", "beir-anserini", "qrels.beir-v1.0.0-scifact.test.txt")


Generated = tuple[str, str, list[str], tuple[str, ...], tuple[str, ...]]


def _generated() -> list[Generated]:
    cases: list[Generated] = []
    for version in ("9.0.8", "10.0"):
        cases.append(
            (
                f"cacm-bm25.trec_eval-{version}.all_trec.q.txt",
                version,
                ["-m", "all_trec", "-q"],
                ("datasets", "cacm", "qrels.cacm.txt"),
                ("datasets", "cacm", "run.cacm-bm25.txt"),
            )
        )
        for bm25 in ("k1_1.2-b_0.75", "k1_0.9-b_0.4"):
            cases.append(
                (
                    f"scifact.bm25s-lucene-{bm25}.trec_eval-{version}.all_trec.c.q.txt",
                    version,
                    ["-c", "-q", "-m", "all_trec"],
                    _SCIFACT_QRELS,
                    tuple(part.format(bm25) for part in _SCIFACT_RUN),
                )
            )
    return cases


def ours(*args: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    """``ef-trec-eval args``: exit code, stdout, stderr."""
    result = CliRunner().invoke(
        trec_eval_command, list(args), input=stdin, prog_name="ef-trec-eval"
    )
    return result.exit_code, result.stdout, result.stderr


def _quicktest(folder: Path, version: str, case: tuple[str, list[str], str, str]) -> None:
    expected, options, qrels, run = case
    golden = (folder / expected).read_text(encoding="utf-8")
    options = [str(folder / o) if (folder / o).is_file() else o for o in options]
    code, out, err = ours("--compat", version, *options, str(folder / qrels), str(folder / run))
    assert code == 0, err
    assert out.splitlines() == golden.splitlines()  # a readable diff first
    assert out == golden


@pytest.mark.parametrize(("expected", "options", "qrels", "run"), QUICKTEST, ids=lambda c: c)
def test_trec_eval_9_quicktest_outputs(expected, options, qrels, run) -> None:
    folder = shared_path("validation", "trec_eval", "v9.0.8")
    _quicktest(folder, "9.0.8", (expected, options, qrels, run))


@pytest.mark.parametrize(
    ("expected", "options", "qrels", "run"), QUICKTEST + COMMENTS, ids=lambda c: c
)
def test_trec_eval_10_quicktest_outputs(expected, options, qrels, run) -> None:
    folder = shared_path("validation", "trec_eval")
    _quicktest(folder, "10.0", (expected, options, qrels, run))


@pytest.mark.parametrize(
    ("expected", "version", "options", "qrels", "run"),
    _generated(),
    ids=[case[0] for case in _generated()],
)
def test_the_c_trec_eval_s_outputs_on_cacm_and_scifact(
    expected, version, options, qrels, run
) -> None:
    golden = shared_path("validation", "generated", expected).read_text(encoding="utf-8")
    code, out, err = ours(
        "--compat", version, *options, str(shared_path(*qrels)), str(shared_path(*run))
    )
    assert code == 0, err
    assert out.splitlines() == golden.splitlines()
    assert out == golden
