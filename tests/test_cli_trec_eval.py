"""ef-trec-eval (ef-eval trec_eval): trec_eval's flags, and errors that are ours.

Its output is compared with trec_eval's byte for byte in tests/conformance
(test_trec_eval_command, test_trec_eval_differential); these tests are about what differs:
one-line errors naming the file and line, exit code 2, notes on stderr, and stdin.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ef.evaluation._engine.trec_eval import measure_names
from ef.evaluation.cli import cli
from ef.evaluation.cli._trec_eval import trec_eval_command

from .profiles_hypothesis import examples

QRELS = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 2\nq3 0 d9 1\n"
RUN = "q1 Q0 d1 1 2.0 bm25\nq1 Q0 x 2 1.0 bm25\nq2 Q0 d3 1 3 bm25\nq2 Q0 d4 2 3 bm25\n"


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str]:
    qrels, run = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels.write_text(QRELS)
    run.write_text(RUN)
    return str(qrels), str(run)


def ours(*args: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(
        trec_eval_command, list(args), input=stdin, prog_name="ef-trec-eval"
    )
    return result.exit_code, result.stdout, result.stderr


def test_the_default_is_the_official_set_summary(files) -> None:
    code, out, err = ours(*files)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[:3] == ["runid                 \tall\tbm25", "num_q                 \tall\t2",
                         "num_ret               \tall\t4"]  # fmt: skip
    # q2's d3 and d4 tie: trec_eval puts the greater docno first, so d3 is at rank 2.
    assert "map                   \tall\t0.7500" in lines
    assert lines[-1] == "P_1000                \tall\t0.0010"


def test_the_ef_eval_subcommand_prints_the_same(files) -> None:
    result = CliRunner().invoke(cli, ["trec_eval", "-q", "-m", "all_trec", *files])
    assert result.exit_code == 0
    assert result.stdout == ours("-q", "-m", "all_trec", *files)[1]


def test_a_run_on_standard_input_reads_as_the_file(files) -> None:
    qrels, run = files
    code, out, _ = ours("-q", "-m", "all_trec", qrels, "-", stdin=Path(run).read_bytes())
    assert code == 0
    assert out == ours("-q", "-m", "all_trec", qrels, run)[1]


def test_a_bad_line_on_standard_input_is_named_as_stdin(files) -> None:
    code, out, err = ours(files[0], "-", stdin=b"q1 Q0 d1 1 high bm25\n")
    assert (code, out) == (2, "")
    assert err == "Error: <stdin>:1: score 'high' is not a number (line: 'q1 Q0 d1 1 high bm25')\n"


@pytest.mark.parametrize(
    ("which", "text", "message"),
    [
        ("qrels", "q1 0 d1\n", "qrels.txt:1: expected 4 columns"),
        ("qrels", "q1 0 d1 1.5\n", "qrels.txt:1: relevance '1.5' is not an integer"),
        ("run", "q1 Q0 d1 1 2.0\n", "run.txt:1: expected 6 columns"),
        ("run", "q1 Q0 d1 1 nan bm25\n", "run.txt:1: score 'nan' is not a finite number"),
    ],
)
def test_bad_input_is_one_line_naming_the_file_and_line(files, which, text, message) -> None:
    Path(files[0 if which == "qrels" else 1]).write_text(text)
    code, out, err = ours(*files)
    assert (code, out) == (2, "")
    assert message in err
    assert err.count("\n") == 1
    assert err.startswith("Error: ")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-m", "ndgc_cut.10"], "no measure 'ndgc_cut'; did you mean ndcg_cut"),
        (["-m", "P."], "-m P.: nothing after the dot"),
        (["-m", "P.5,5"], "-m P.5,5: a cutoff is given twice"),
        (["-m", "P.0"], "-m P.0: cutoffs must be positive"),
        (["-m", "P.abc"], "-m P.abc: 'abc' is not a whole number"),
        (["-m", "utility.1,2"], "utility takes 4 coefficients"),
        (["-m", "prefs_simp"], "needs preference or judgement-group files"),
        (["-m", "unj"], "a measure of trec_eval 10.0; use --compat 10.0"),
        (["-m", "yaap"], "trec_eval's yaap is not implemented"),
        (["-l", "0"], "-l '0': must be 1 or more"),
        (["-M", "x"], "-M 'x': expected a whole number"),
        (["-M", "1_000"], "-M '1_000': expected a whole number"),  # atol reads 1; int() 1000
        (["-M", "5x"], "-M '5x': expected a whole number"),
        (["-l", "\u0665"], "-l '\u0665': expected a whole number"),  # an Arabic-Indic 5
        (["-M", "-99999999999999999999999"], "-M '-99999999999999999999999': must be 0 or more"),
        (
            ["--compat", "10.0", "-m", "rbp.p=1.5"],
            "-m rbp.p=1.5: rbp's parameter 'p' must lie strictly between 0 and 1, got 1.5",
        ),
        (
            ["--compat", "10.0", "-m", "rbp_resid.p=0"],
            "-m rbp_resid.p=0: rbp_resid's parameter 'p' must lie strictly between 0 and 1, got 0.0",
        ),
        (["-m", "set_F.-1"], "-m set_F.-1: set_F's parameter 'beta2' must be 0 or more, got -1.0"),
        (
            ["-m", "iprec_at_recall.0.5,1e300"],
            "-m iprec_at_recall.0.5,1e300: a recall point 1e+300 is out of range: it must lie "
            "between -2147483648 and 2147483648",
        ),
        (["-m", "Rprec_mult.-3e9"], "-m Rprec_mult.-3e9: a multiple -3000000000.0 is out of range"),
        (["-m", "11pt_avg.1e10"], "-m 11pt_avg.1e10: a recall point 10000000000.0 is out of range"),
        (["-m", "relstring.1e19"], "-m relstring.1e19: the length 1e+19 is out of range"),
        (["-R", "prefs"], "-R prefs: only qrels are read here"),
        (["-D", "1"], "-D (trec_eval's debug output) is not supported"),
        (["--bogus"], "No such option '--bogus'. (ef-trec-eval -h for help)"),
    ],
)
def test_bad_options_are_one_line(files, args, message) -> None:
    code, out, err = ours(*args, *files)
    assert (code, out) == (2, "")
    assert message in err, err
    assert err.count("\n") == 1


def test_one_file_or_three_is_a_usage_error(files) -> None:
    code, _, err = ours(files[0])
    assert code == 2
    assert "expected two files, QRELS RUN, got 1" in err


def test_no_query_in_common_says_so(files) -> None:
    Path(files[1]).write_text("zz Q0 d1 1 2.0 bm25\n")
    code, out, err = ours(*files)
    assert (code, out) == (2, "")
    assert "no query has both results and judgements" in err


@pytest.mark.parametrize(
    ("qrels", "run", "cause"),
    [
        (
            "1 0 D1 1\n2 0 D2 1\n",
            "001 Q0 D1 1 2 r\n002 Q0 D2 1 2 r\n",
            "the ids differ in leading zeros ('001' and '1')",
        ),
        ("q1 0 D1 1\n", "Q1 Q0 D1 1 2 r\n", "the ids differ in case ('Q1' and 'q1')"),
        ("1 0 D1 1\n2 0 D2 1\n", "q1 Q0 D1 1 2 r\n", "every run id starts with 'q'"),
        ("1 0 D1 1\n", "1.0 Q0 D1 1 2 r\n", "every run id ends with '.0'"),
    ],
    ids=["zero-padded", "upper-cased", "prefixed", "int-like-float"],
)
@pytest.mark.parametrize("version", ["9.0.8", "10.0"])
def test_no_query_in_common_names_ids_of_each_side_and_the_likely_cause(
    tmp_path: Path, qrels: str, run: str, cause: str, version: str
) -> None:
    (tmp_path / "qrels").write_text(qrels)
    (tmp_path / "run").write_text(run)
    files = (str(tmp_path / "qrels"), str(tmp_path / "run"))
    code, out, err = ours("--compat", version, *files)
    assert (code, out) == (2, "")
    assert "no query has both results and judgements: the run has " in err
    assert f"likely cause: {cause}" in err, err
    assert err.count("\n") == 1
    if version == "10.0":  # -c scores every judged query 0, as trec_eval 10.0 does: a note
        code, out, err = ours("--compat", version, "-c", *files)
        assert code == 0
        assert "num_q                 \tall\t" in out
        assert err.startswith("note: no query has both results and judgements")
        assert cause in err


def test_doc_ids_that_do_not_meet_the_qrels_are_a_warning_and_stdout_stays_trec_eval_s(
    tmp_path: Path,
) -> None:
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("q1 0 CACM-1 1\nq2 0 CACM-2 1\n")
    run.write_text("q1 Q0 CACM-1 1 2 r\nq2 Q0 CACM-2 1 2 r\n")
    code, right, err = ours("-m", "P.1", str(qrels), str(run))
    assert (code, err) == (0, "")
    run.write_text("q1 Q0 cacm-1 1 2 r\nq2 Q0 cacm-2 1 2 r\n")
    code, out, err = ours("-m", "P.1", str(qrels), str(run))
    assert code == 0
    assert out == right.replace("1.0000", "0.0000")  # trec_eval's zeros, unchanged
    assert err.startswith("warning: no scored query retrieves a judged doc: ")
    assert "likely cause: the ids differ in case ('cacm-1' and 'CACM-1')" in err
    assert err.count("\n") == 1


def test_trec_eval_10_stops_at_a_judged_query_the_run_lacks(files) -> None:
    code, out, err = ours("--compat", "10.0", *files)
    assert (code, out) == (2, "")
    assert "query 'q3' is judged but the run has no results for it" in err
    code, out, _ = ours("--compat", "10.0", "-c", "-q", "-m", "P.1", *files)
    assert code == 0
    assert "P_1                   \tq3\t0.0000\n" in out  # -c scores it 0, and prints it


def test_what_trec_eval_reads_otherwise_is_a_note_on_stderr(files) -> None:
    code, out, err = ours("-m", "ndcg_cut.2.5", *files)
    assert code == 0
    assert out.startswith("ndcg_cut_2            \tall\t")
    assert err == "note: -m ndcg_cut.2.5: trec_eval reads '2.5' as 2, and so does ef\n"


def test_a_huge_max_or_cutoff_is_c_s_long_max_as_trec_eval_reads_it(files) -> None:
    """trec_eval reads -M and cutoffs with atol, which gives LONG_MAX beyond it: -M is no
    limit, and P's cutoff prints as P_9223372036854775807. (The same bytes as the C program:
    tests/conformance/test_trec_eval_differential.py.)"""
    huge = "99999999999999999999999"
    code, out, err = ours("-q", "-M", huge, *files)
    assert code == 0
    assert out == ours("-q", *files)[1]
    assert err == f"note: -M {huge}: trec_eval reads it as 9223372036854775807, and so does ef\n"
    code, out, err = ours("-m", f"P.{huge}", *files)
    assert code == 0
    assert out == "P_9223372036854775807 \tall\t0.0000\n"
    assert err == (
        f"note: -m P.{huge}: trec_eval reads '{huge}' as 9223372036854775807, and so does ef\n"
    )


def test_cutoffs_trec_eval_sorts_wrongly_get_a_note(files) -> None:
    code, out, err = ours("-m", "P.2,9223372036854775807", *files)
    assert code == 0
    assert out.splitlines() == ["P_2                   \tall\t0.5000",
                                "P_9223372036854775807 \tall\t0.0000"]  # fmt: skip
    assert "trec_eval sorts these cutoffs by their difference as a C int" in err


def test_a_long_recall_point_name_is_cut_as_trec_eval_cuts_it(files) -> None:
    code, out, _ = ours("-m", "iprec_at_recall.123456.5", *files)
    assert code == 0
    assert out.startswith("iprec_at_recall_123456.5\tall\t")  # its buffer drops the last 0


def test_an_empty_ranking_prints_minus_nan_as_trec_eval_does(files) -> None:
    code, out, err = ours("-q", "-J", "-m", "11pt_avg", "-m", "set_P", *files)
    assert code == 0
    assert "11pt_avg              \tq2\t  -nan\n" not in out  # q2 keeps d3 (judged)
    Path(files[1]).write_text(RUN + "q3 Q0 unjudged 1 1 bm25\n")
    code, out, err = ours("-q", "-J", "-m", "11pt_avg", *files)
    assert "11pt_avg              \tq3\t  -nan\n" in out
    assert "11pt_avg              \tall\t  -nan\n" in out
    assert err.startswith("note: 1 query has no docs left to score (-J or -M), 'q3' first")


def test_help_describes_the_requested_measures_and_exits_0() -> None:
    code, out, _ = ours("-h", "-m", "P.5", "-m", "gm_map")
    assert code == 0
    assert out.startswith("usage: ef-trec-eval [-h] [-q]")
    assert "gm_map\n    gm_map: exp(mean(log(max(AP, 0.00001)))) over queries" in out
    assert "P_5\n    precision@5: |relevant in top k| / k" in out


def test_version_goes_to_stderr_as_trec_eval_s() -> None:
    code, out, err = ours("--compat", "10.0", "-v")
    assert (code, out) == (0, "")
    assert err.startswith("trec_eval version 10.0 (ef-evaluation ")


def test_the_console_script_runs_without_a_traceback(files) -> None:
    code = "from ef.evaluation.cli import trec_eval_main; trec_eval_main()"
    done = subprocess.run(
        [sys.executable, "-c", code, "-m", "P.1", files[0], files[0]],  # the qrels as a run
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1


def test_a_bug_of_ours_is_one_line_and_exit_1(files, monkeypatch) -> None:
    import ef.evaluation.cli._trec_eval as command

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(command, "_evaluate", broken)
    code, out, err = ours(*files)
    assert (code, out) == (1, "")
    assert err == "Error: internal error: RuntimeError: boom (please report it)\n"
    result = CliRunner().invoke(cli, ["trec_eval", *files])  # the same under ef-eval
    assert (result.exit_code, result.stderr) == (1, err)


# -- no flag or value gives an internal error ----------------------------------------------

#: Numbers as a user might type them: whole, huge, negative, fractional, at C's limits.
_NUMBERS = st.one_of(
    st.sampled_from(["0", "-0", "+5", ".5", "5.", "1e-300", "1.5", "-1", "0.5", "3"]),
    st.integers(-(10**25), 10**25).map(str),
    st.integers(1, 30).map(str),
    st.floats(-1e20, 1e20).map(repr),
)  # fmt: skip
#: And what is not a number, or not only one.
_JUNK = st.one_of(
    st.sampled_from(["", " ", "5x", "x", "1_000", "\u0665", "\u00b2", "nan", "inf", "1e999"]),
    st.text(max_size=4),
)
#: At and beyond C's limits (LONG_MAX, INT_MAX, a double's).
_HUGE = st.sampled_from(["99999999999999999999999", "9223372036854775807", "9223372036854775808",
                         "-9223372036854775809", "2147483648", "4294967301", "1e300", "-1e300",
                         "1e19", "3e9"])  # fmt: skip
_VALUES = st.one_of(_NUMBERS, _NUMBERS, _HUGE, _JUNK)
_NAMES = st.one_of(
    st.sampled_from(measure_names("10.0")),
    st.sampled_from(["official", "all_trec", "set", "bogus", "prefs_simp", "yaap", ""]),
)
#: What a valid command may hold besides the one odd value of an example.
_VALID = st.lists(
    st.sampled_from([["-q"], ["-c"], ["-n"], ["-J"], ["-M", "3"], ["-l", "2"], ["-N", "40"],
                     ["-m", "P.1,2"], ["-m", "map"], ["-m", "all_trec"], ["-m", "ndcg.1=3"]]),
    max_size=3,
).map(lambda parts: [a for part in parts for a in part])  # fmt: skip


@st.composite
def _measure(draw: st.DrawFn) -> list[str]:
    """``-m`` with a measure and odd parameters: ``P.5,5``, ``rbp.p=1e300``, ``ndcg_cut.``."""
    name = draw(_NAMES)
    pair = st.tuples(st.sampled_from(["p", "1", "2", "-1", "x", ""]), _VALUES).map("=".join)
    parts: list[str] = draw(st.lists(st.one_of(_VALUES, pair), max_size=3))
    twice: bool = draw(st.booleans())
    if parts and twice:
        parts.append(parts[0])  # a parameter given twice: P.5,5
    return ["-m", f"{name}.{','.join(parts)}"]


_FLAG = st.tuples(st.sampled_from(["-M", "-l", "-N"]), _VALUES).map(list)


@st.composite
def _arguments(draw: st.DrawFn) -> list[str]:
    """A valid command with one or two odd values in it, and maybe trec_eval 10.0's."""
    args = draw(_VALID)
    for _ in range(draw(st.integers(1, 2))):
        args += draw(st.one_of(_FLAG, _measure()))
    if draw(st.booleans()):
        args += ["--compat", "10.0"]
    return args


@pytest.fixture(scope="module")
def shared_files(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    folder = tmp_path_factory.mktemp("trec_eval_flags")
    qrels, run = folder / "qrels.txt", folder / "run.txt"
    qrels.write_text(QRELS)
    run.write_text(RUN)
    return str(qrels), str(run)


@settings(max_examples=examples(1000), suppress_health_check=[HealthCheck.too_slow])
@given(args=_arguments())
@example(args=["-M", "99999999999999999999999"])  # each was an internal error once
@example(args=["-m", "P.99999999999999999999999"])
@example(args=["-m", "ndcg_cut.9223372036854775808,5"])
@example(args=["-m", "iprec_at_recall.1e300"])
@example(args=["-m", "Rprec_mult.1e300"])
def test_no_flag_or_value_gives_an_internal_error(shared_files, args) -> None:
    """Every combination of flags and values gives trec_eval's output (notes on stderr) or
    one line naming what is wrong, exit code 2: never an internal error or a traceback."""
    code, out, err = ours(*args, *shared_files)
    assert "Traceback" not in err, (args, err)
    assert "internal error" not in err, (args, err)
    if code == 0:
        assert all(line.startswith("note: ") for line in err.splitlines()), (args, err)
    else:
        assert code == 2, (args, err)
        assert out == ""
        assert err.startswith("Error: ")
        assert err.count("\n") == 1, (args, err)
