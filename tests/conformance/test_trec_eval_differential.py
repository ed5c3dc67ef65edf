"""``ef-eval trec_eval`` against the C trec_eval 9.0.8 and 10.0, byte for byte.

Hypothesis writes a qrels file and a run (tied scores, scores equal as C floats but not as
doubles, graded and negative judgements, judged queries the run lacks and run queries without
judgements, docs without a judgement, deep and short rankings) and draws trec_eval's options
(``-q``, ``-c``, ``-J``, ``-M``, ``-l``, ``-N``, ``-n`` and ``-m`` with parameters or the
named sets). Both programs run on the same files; their stdout must be the same bytes, or
both must fail (trec_eval 10.0 stops at a judged query the run lacks, without ``-c``).

40 examples by default and 200 under the large hypothesis profile (CI;
tests/profiles_hypothesis.py); each example runs both versions. The C trec_eval is built
from ../shared/oracles (skipped where it cannot be).
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from ..conftest import shared_path
from ..profiles_hypothesis import examples
from ._oracles import trec_eval_binary
from .test_trec_eval_command import ours

#: Query ids whose byte order differs from their numeric order.
QUERIES = ["1", "10", "9", "q2", "q10", "Q1"]
DOCS = [f"d{i}" for i in range(14)] + ["D1", "d10x"]
#: Scores as written: ties, and pairs equal as a C float but not as a double.
SCORES = ["1", "2.5", "0.5", "3", "-1", "1e-3", "1.00000001", "1.00000002", "7", "0.1"]

#: -m choices: named sets, and measures with trec_eval's parameters (both versions' and
#: 10.0's own).
MEASURES = [
    "official",
    "all_trec",
    "set",
    "P.1,3,10",
    "recall.2,5",
    "map_cut.3",
    "ndcg_cut.2,4",
    "relative_P.2",
    "success.1,3",
    "iprec_at_recall.0,.25,.5,.75",
    "11pt_avg.0.25,.5",
    "11pt_avg.0.5,0.2",
    "Rprec_mult.0.5,1.5",
    "utility.2,-1,0,1",
    "set_F.0.5",
    "ndcg.1=3,2=9",
    "ndcg_rel.1=2",
    "Rndcg.1=2,3=5",
    "G.2=4",
    "relstring.5",
    "binG",
    "gm_bpref",
    "num_nonrel_judged_ret",
    "set_map",
]
#: Not rbp: trec_eval 10.0's m_rbp.c reads its min and max gains uninitialised, so what it
#: prints depends on what the measures before it left on the stack (ef starts them at 0, as
#: the goldens of -m all_trec show; test_trec_eval_command compares those).
MEASURES_10 = ["unj.2,6", "rbp_resid.p=0.5", "rbp_resid", "relstring", "all_trec"]

#: Examples per run: a fifth by default, all of them under the large profile (CI).
EXAMPLES = examples(200)


@st.composite
def qrels_and_run(draw: st.DrawFn) -> tuple[str, str]:
    """A qrels file and a run file, as text."""
    judged = draw(st.lists(st.sampled_from(QUERIES), unique=True, min_size=1, max_size=4))
    qrels_lines = []
    for query in judged:
        docs = draw(st.lists(st.sampled_from(DOCS), unique=True, min_size=1, max_size=8))
        grades = [draw(st.sampled_from([-1, 0, 0, 1, 1, 2, 3, 12])) for _ in docs]
        if all(g < 0 for g in grades):  # trec_eval reads past its arrays then (undefined)
            grades[0] = 0
        qrels_lines += [f"{query} 0 {doc} {grade}" for doc, grade in zip(docs, grades, strict=True)]
    # The run answers a judged query (else both stop: no query in common), often all of them
    # (else trec_eval 10.0 stops without -c), and maybe queries without judgements.
    ranked = draw(st.lists(st.sampled_from(QUERIES), unique=True, max_size=3))
    answered = judged if draw(st.booleans()) else judged[:1]
    ranked = list(dict.fromkeys([*answered, *ranked]))
    run_lines = []
    for query in ranked:
        docs = draw(st.lists(st.sampled_from(DOCS), unique=True, min_size=1, max_size=12))
        for rank, doc in enumerate(docs, start=1):
            score = draw(st.sampled_from(SCORES))
            run_lines.append(f"{query} Q0 {doc} {rank} {score} run{draw(st.integers(1, 2))}")
    order = draw(st.permutations(range(len(run_lines))))  # a run need not be sorted
    return "\n".join(qrels_lines) + "\n", "\n".join(run_lines[i] for i in order) + "\n"


@st.composite
def options(draw: st.DrawFn) -> list[str]:
    """trec_eval's options, as arguments."""
    args = []
    for flag in ("-q", "-c", "-J", "-n"):
        if draw(st.booleans()):
            args.append(flag)
    if draw(st.booleans()):
        args.append(f"-M{draw(st.integers(0, 6))}")
    if draw(st.booleans()):
        args.append(f"-l{draw(st.integers(1, 3))}")
    if draw(st.booleans()):
        args += ["-N", str(draw(st.integers(0, 50)))]
    for measure in draw(st.lists(st.sampled_from(MEASURES), max_size=3)):
        args += ["-m", measure]
    return args


def _c_trec_eval(version: str, args: list[str]) -> tuple[int, str]:
    done = subprocess.run(
        [str(trec_eval_binary(version)), *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,  # its exit code is compared
    )
    return done.returncode, done.stdout


def _compare(version: str, args: list[str], files: list[str]) -> None:
    code, theirs = _c_trec_eval(version, [*args, *files])
    mine_code, mine, err = ours("--compat", version, *args, *files)
    if code != 0:
        assert mine_code != 0, (version, args, "trec_eval failed; ef printed", mine)
        assert err.count("\n") == 1  # one line
        event(f"{version}: both fail")
        return
    assert mine_code == 0, (version, args, err)
    assert mine.splitlines() == theirs.splitlines(), (version, args)
    assert mine == theirs
    event(f"{version}: the same bytes")


@settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.too_slow])
@given(inputs=qrels_and_run(), args=options(), extra=st.lists(st.sampled_from(MEASURES_10)))
def test_the_same_bytes_as_the_c_trec_eval(inputs, args, extra) -> None:
    trec_eval_binary("9.0.8")  # skip early where it cannot be built
    qrels_text, run_text = inputs
    with tempfile.TemporaryDirectory() as tmp:
        qrels, run = Path(tmp, "qrels"), Path(tmp, "run")
        qrels.write_text(qrels_text)
        run.write_text(run_text)
        files = [str(qrels), str(run)]
        _compare("9.0.8", args, files)
        ten = [*args, *(a for m in extra for a in ("-m", m))]
        _compare("10.0", ten, files)


@pytest.mark.parametrize("version", ["9.0.8", "10.0"])
def test_a_run_listing_a_doc_twice_fails_in_both(version, tmp_path) -> None:
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("q1 0 d1 1\n")
    run.write_text("q1 Q0 d1 1 2 r\nq1 Q0 d1 2 1 r\n")
    code, _ = _c_trec_eval(version, [str(qrels), str(run)])
    mine_code, out, err = ours("--compat", version, str(qrels), str(run))
    assert code != 0
    assert (mine_code, out) == (2, "")
    assert f"{run}:2: doc 'd1' is listed twice for query 'q1'" in err


#: Values at and beyond C's limits, which trec_eval reads with atol (LONG_MAX beyond it) and
#: prints in fixed buffers: each gives trec_eval's bytes (once an internal error, for some).
HUGE = [
    ["-M", "99999999999999999999999"],  # no limit
    ["-M", "9223372036854775807"],
    ["-m", "P.99999999999999999999999"],  # P_9223372036854775807
    ["-m", "ndcg_cut.9223372036854775808"],
    ["-m", "success.2147483648"],
    ["-N", "99999999999999999999999", "-m", "utility"],
    ["-m", "ndcg.99999999999999999999999=3"],
    ["-m", "iprec_at_recall.123456.5"],  # its name cut as trec_eval's buffer cuts it
    ["-m", "Rprec_mult.2147483647"],
    ["-m", "relstring.1e18"],
]


@pytest.mark.parametrize("version", ["9.0.8", "10.0"])
@pytest.mark.parametrize("args", HUGE, ids=" ".join)
def test_huge_values_give_the_c_trec_eval_s_bytes(version, args) -> None:
    _same_bytes_on_the_test_files(version, args)


#: Parameters outside the range ef's own measure strings take (a recall level beyond 0..1, a
#: multiple of R at or below 0), which the C trec_eval reads all the same: the drop-in prints
#: its bytes, while evaluate_run refuses them (tests/test_measures.py).
OUT_OF_RANGE = [
    ["-m", "iprec_at_recall.2,-0.5,0.5"],
    ["-m", "11pt_avg.0.5,2,-1"],
    ["-m", "Rprec_mult.0,-1,1"],
]


@pytest.mark.parametrize("version", ["9.0.8", "10.0"])
@pytest.mark.parametrize("args", OUT_OF_RANGE, ids=" ".join)
def test_parameters_ef_refuses_still_give_the_c_trec_eval_s_bytes(version, args) -> None:
    _same_bytes_on_the_test_files(version, args)


def _same_bytes_on_the_test_files(version: str, args: list[str]) -> None:
    """``-q`` with ``args`` on trec_eval's own test files: both exit 0, with the same bytes."""
    folder = shared_path("validation", "trec_eval")
    files = [str(folder / "qrels.test"), str(folder / "results.test")]
    code, theirs = _c_trec_eval(version, ["-q", *args, *files])
    mine_code, mine, err = ours("--compat", version, "-q", *args, *files)
    assert (code, mine_code) == (0, 0), err
    assert mine == theirs


#: Lines that start with '#' but have a data line's shape: data to trec_eval 9.0.8 (queries
#: '#5' and '#q', the run tag of the last line 'x'), comments to 10.0 (its qrels reader
#: takes a '#' line right after another for data, and crashes on one at the end: not here).
HASH_LINES = {
    "both": (
        "q1 0 d1 1\nq1 0 d2 0\n#5 0 d1 1\nq2 0 d3 1\n#q 0 d4 2\nq3 0 d9 1\n",
        "q1 Q0 d1 1 0.9 t\nq1 Q0 d2 2 0.5 t\n#5 Q0 d1 1 0.9 t\n#5 Q0 d7 2 0.3 t\n"
        "q2 Q0 d3 1 0.8 t\n#q Q0 d4 1 1 t\nq3 Q0 d9 1 2 t\n",
    ),
    "run-last": (
        "q1 0 d1 1\nq2 0 d3 1\n",
        "q1 Q0 d1 1 0.9 t\nq2 Q0 d3 1 0.8 t\n#5 Q0 d1 1 0.9 x\n",
    ),
}


@pytest.mark.parametrize("version", ["9.0.8", "10.0"])
@pytest.mark.parametrize("case", HASH_LINES)
def test_hash_lines_shaped_as_data_give_the_c_trec_eval_s_bytes(version, case, tmp_path) -> None:
    trec_eval_binary(version)
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text(HASH_LINES[case][0])
    run.write_text(HASH_LINES[case][1])
    files = [str(qrels), str(run)]
    for args in (["-q", "-m", "all_trec"], ["-c", "-m", "official"]):
        code, theirs = _c_trec_eval(version, [*args, *files])
        assert code == 0
        assert ours("--compat", version, *args, *files)[1] == theirs
    _, out, err = ours("--compat", version, "-m", "num_q", "-m", "runid", *files)
    if version == "9.0.8":  # read as data, as trec_eval 9.0.8 reads them: nothing to say
        assert err == ""
        assert ("num_q                 \tall\t5\n" in out) == (case == "both")
    else:  # a comment, as 10.0 takes it, and a warning naming the file and line
        assert f"warning: {run}:3: starts with '#' but has the shape of a run line" in err
        assert "runid                 \tall\tt\n" in out
