"""progress=: the shared phases and bar, and every long function of the API that reports.

No test depends on timing: a bar is drawn at once (delay 0), never (a delay of an hour), or
when a fake timer is fired by hand.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import gzip
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import pytest
from rich.console import Console

import ef.evaluation._progress as progress_module
from ef.evaluation import (
    compare,
    convert,
    evaluate_run,
    evaluate_shards,
    read_beir,
    read_qrels,
    write_beir,
    write_run,
)
from ef.evaluation._engine.stats import planned_resamples
from ef.evaluation._progress import Phase, _Bar, check_progress, phase, reading

Seen = list[tuple[int, Any]]


def recorder() -> tuple[Seen, Callable[[int, Any], None]]:
    seen: Seen = []
    return seen, lambda done, total: seen.append((done, total))


def phases(seen: Seen) -> list[Seen]:
    """The reports cut into phases: each starts at done == 0, which only a start reports."""
    cut: list[Seen] = []
    for done, total in seen:
        if done == 0:
            cut.append([])
        cut[-1].append((done, total))
    return cut


def assert_complete(one: Seen) -> None:
    """(0, total) first, the same total throughout, done rising, (total, total) last."""
    total = one[0][1]
    assert one[0] == (0, total)
    assert {t for _, t in one} == {total}
    dones = [done for done, _ in one]
    assert dones == sorted(set(dones)), dones
    assert one[-1] == (total, total)


# -- the phase ------------------------------------------------------------------------------


def test_a_phase_never_goes_back_never_passes_its_total_and_completes() -> None:
    seen, report = recorder()
    with phase(report, "counting", 10) as counting:
        counting.advance(3)
        counting.update(2)  # behind: ignored
        counting.update(3)  # no change: not reported again
        counting.advance(20)  # capped
        counting.advance(1)
    assert seen == [(0, 10), (3, 10), (10, 10)]


def test_a_failed_phase_stops_where_it_was() -> None:
    seen, report = recorder()

    def fail_half_way() -> None:
        with phase(report, "counting", 10) as counting:
            counting.advance(4)
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        fail_half_way()
    assert seen == [(0, 10), (4, 10)]


def test_a_share_counts_its_part_and_completes_it() -> None:
    seen, report = recorder()
    with phase(report, "resampling", 10) as resampling:
        with resampling.share(6) as drew:
            drew(2)
            drew(9)  # more than the share: capped at it
        with resampling.share(4) as drew:
            drew(1)
        assert resampling.done == 10
    assert seen == [(0, 10), (2, 10), (6, 10), (7, 10), (10, 10)]


def test_an_unknown_total_is_reported_as_none() -> None:
    seen, report = recorder()
    with phase(report, "downloading", None, unit="bytes") as receiving:
        receiving.update(5)
        receiving.update(8)
    assert seen == [(0, None), (5, None), (8, None)]


def test_without_a_reporter_a_phase_only_counts() -> None:
    counting = Phase(None, 3)
    counting.advance(5)
    assert counting.done == 3


@pytest.mark.parametrize("bad", ["yes", None, 1, 0.5])
def test_check_progress_refuses_what_is_neither_a_bool_nor_a_callable(bad: object) -> None:
    with pytest.raises(ValueError, match=r"progress must be a bool or a callable \(done, total\)"):
        check_progress(bad)


# -- the bar --------------------------------------------------------------------------------


def terminal() -> Console:
    return Console(file=io.StringIO(), force_terminal=True, width=100, color_system="standard")


def drawn(console: Console) -> str:
    file = console.file
    assert isinstance(file, io.StringIO)
    return file.getvalue()


def test_a_bar_renders_on_a_terminal() -> None:
    console = terminal()
    bar = _Bar("reading run.trec", 10, "count", 0, console=console)
    bar.update(4, 10)
    bar.close()
    out = drawn(console)
    assert "reading run.trec" in out
    assert "4/10" in out
    assert "\x1b[" in out  # drawn as a terminal bar, with escape codes


def test_a_bar_of_bytes_shows_amounts() -> None:
    console = terminal()
    bar = _Bar("scifact.zip", 2_000_000, "bytes", 0, console=console)
    bar.update(2_000_000, 2_000_000)
    bar.close()
    assert "2.0/2.0 MB" in drawn(console)


class FakeTimer:
    """threading.Timer, fired by hand."""

    made: ClassVar[list[FakeTimer]] = []

    def __init__(self, delay: float, function: Callable[[], None]) -> None:
        self.delay, self.function = delay, function
        self.daemon = False
        self.started = self.cancelled = False
        FakeTimer.made.append(self)

    def start(self) -> None:
        self.started = True

    def cancel(self) -> None:
        self.cancelled = True


def test_a_delayed_bar_is_drawn_only_once_its_delay_has_passed() -> None:
    console = terminal()
    bar = _Bar("scoring", 10, "count", 1.0, console=console, timer=FakeTimer)
    timer = FakeTimer.made[-1]
    assert (timer.delay, timer.started, timer.daemon) == (1.0, True, True)
    bar.update(3, 10)
    assert drawn(console) == ""  # short work draws nothing
    timer.function()  # the delay has passed: drawn, with what is done so far
    bar.update(7, 10)
    bar.close()
    assert timer.cancelled
    assert "7/10" in drawn(console)


def test_a_bar_closed_before_its_delay_is_never_drawn() -> None:
    console = terminal()
    bar = _Bar("scoring", 10, "count", 1.0, console=console, timer=FakeTimer)
    bar.update(10, 10)
    bar.close()
    FakeTimer.made[-1].function()  # a timer that fires late draws nothing
    assert drawn(console) == ""


def test_progress_true_waits_for_the_delay(monkeypatch, capsys) -> None:
    monkeypatch.setattr(progress_module, "DELAY", 3600.0)
    evaluate_run({"q1": {"d1": 1.0}}, {"q1": {"d1": 1}}, progress=True)
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(progress_module, "DELAY", 0.0)
    evaluate_run({"q1": {"d1": 1.0}}, {"q1": {"d1": 1}}, progress=True)
    captured = capsys.readouterr()
    assert "scoring" in captured.err
    assert captured.out == ""  # a bar never writes to stdout


# -- bytes read -----------------------------------------------------------------------------


def qrels_lines(n: int) -> str:
    return "".join(f"q{i} 0 d{i} 1\n" for i in range(n))


@pytest.mark.parametrize("gzipped", [False, True])
def test_reading_reports_the_bytes_read_as_the_lines_go(tmp_path: Path, gzipped: bool) -> None:
    text = qrels_lines(30_000).encode()
    path = tmp_path / ("qrels.txt.gz" if gzipped else "qrels.txt")
    path.write_bytes(gzip.compress(text) if gzipped else text)
    seen, report = recorder()
    with reading(path, report):
        assert len(read_qrels(path)) == 30_000
    assert_complete(seen)
    assert seen[0] == (0, path.stat().st_size)  # of the gzip file itself, for a gzipped one
    assert len(seen) >= 4  # (0, total), some positions on the way, the end


def test_reading_counts_a_file_read_twice_once(tmp_path: Path) -> None:
    path = tmp_path / "qrels.txt"
    path.write_text(qrels_lines(20_000))
    seen, report = recorder()
    with reading(path, report):
        read_qrels(path)
        read_qrels(path)
    assert_complete(seen)


def test_reading_a_folder_counts_every_file_under_it(tmp_path: Path) -> None:
    write_beir(tmp_path / "ds", {"d1": "Paris"}, {"q1": "capital?"}, {"q1": {"d1": 1}})
    size = sum(p.stat().st_size for p in (tmp_path / "ds").rglob("*") if p.is_file())
    seen, report = recorder()
    with reading(tmp_path / "ds", report):
        read_beir(tmp_path / "ds")
    assert seen[0] == (0, size)
    assert seen[-1] == (size, size)


def test_only_the_watched_file_counts(tmp_path: Path) -> None:
    watched, other = tmp_path / "a.txt", tmp_path / "b.txt"
    watched.write_text(qrels_lines(10))
    other.write_text(qrels_lines(20_000))
    seen, report = recorder()
    with reading(watched, report):
        read_qrels(other)
        assert seen == [(0, watched.stat().st_size)]


# -- evaluate_run ---------------------------------------------------------------------------

MEASURES = ("ndcg@10", "recall@100", "mrr@10")


def ranked_files(tmp_path: Path, n_queries: int = 3000) -> tuple[Path, Path]:
    """An MS MARCO run (read line by line, never by the fast reader) and its qrels."""
    run, qrels = tmp_path / "run.tsv", tmp_path / "qrels.txt"
    run.write_text("".join(f"q{q}\td{q}-{r}\t{r}\n" for q in range(n_queries) for r in range(1, 6)))
    qrels.write_text("".join(f"q{q} 0 d{q}-{q % 7 + 1} 1\n" for q in range(n_queries)))
    return run, qrels


def test_evaluate_run_reports_reading_then_scoring(tmp_path: Path) -> None:
    run, qrels = ranked_files(tmp_path)
    seen, report = recorder()
    with_progress = evaluate_run(run, qrels, metrics=MEASURES, progress=report)
    reading_run, scoring = phases(seen)
    assert_complete(reading_run)
    assert reading_run[0] == (0, run.stat().st_size)
    assert len(reading_run) > 2  # the bytes read on the way, not only the end
    assert_complete(scoring)
    assert scoring == [(0, 3), (1, 3), (2, 3), (3, 3)]  # one measure at a time
    assert with_progress.metrics == evaluate_run(run, qrels, metrics=MEASURES).metrics


def test_evaluate_run_of_a_mapping_has_no_reading_phase() -> None:
    seen, report = recorder()
    evaluate_run({"q1": {"d1": 1.0}}, {"q1": {"d1": 1}}, metrics=MEASURES, progress=report)
    assert seen == [(0, 3), (1, 3), (2, 3), (3, 3)]


def test_evaluate_run_under_a_profile_reports_every_measure(tmp_path: Path) -> None:
    seen, report = recorder()
    run = {"q1": {"d1": 1.0, "d2": 0.5}}
    evaluate_run(run, {"q1": {"d2": 1}}, metrics=MEASURES, profile="beir", progress=report)
    (scoring,) = phases(seen)
    assert_complete(scoring)
    assert scoring[-1] == (3, 3)


@pytest.mark.parametrize("threads", [0, 2])
def test_a_sharded_run_reports_one_step_per_shard(tmp_path: Path, threads: int) -> None:
    shards = []
    for i in range(3):
        shard = tmp_path / f"part-{i}.trec"
        shard.write_text(
            "".join(f"q{i}-{n} Q0 d{r} {r} {1 / r} t\n" for n in range(4) for r in (1, 2))
        )
        shards.append(shard)
    qrels = {f"q{i}-{n}": {"d2": 1} for i in range(3) for n in range(4)}
    seen, report = recorder()
    with cf.ThreadPoolExecutor(threads) if threads else contextlib.nullcontext() as pool:
        got = evaluate_shards(shards, qrels, metrics=MEASURES, progress=report, executor=pool)
    assert seen == [(0, 3), (1, 3), (2, 3), (3, 3)]  # one phase, a step per shard
    assert got.metrics == evaluate_shards(shards, qrels, metrics=MEASURES).metrics


def test_a_failed_evaluation_does_not_end_its_phase_as_complete(tmp_path: Path) -> None:
    bad = tmp_path / "run.tsv"
    bad.write_text("q1\td1\t1\nq1\td2\n")
    seen, report = recorder()
    with pytest.raises(ValueError, match=r"run\.tsv"):
        evaluate_run(bad, {"q1": {"d1": 1}}, progress=report)
    assert seen[-1] != (bad.stat().st_size, bad.stat().st_size)


def test_evaluate_run_refuses_a_bad_progress() -> None:
    with pytest.raises(ValueError, match=r"progress must be a bool or a callable"):
        evaluate_run({"q1": {"d1": 1.0}}, {"q1": {"d1": 1}}, progress="yes")  # type: ignore[arg-type]


# -- convert --------------------------------------------------------------------------------


def test_convert_reports_the_bytes_of_the_source(tmp_path: Path) -> None:
    run, _ = ranked_files(tmp_path)
    seen, report = recorder()
    convert(run, tmp_path / "run.trec", progress=report)
    (converting,) = phases(seen)
    assert_complete(converting)
    assert converting[0] == (0, run.stat().st_size)
    assert len(converting) > 2


def test_convert_of_a_dataset_counts_all_its_files(tmp_path: Path) -> None:
    source = tmp_path / "beir"
    write_beir(source, {"d1": "Paris"}, {"q1": "capital?"}, {"q1": {"d1": 1}})
    size = sum(p.stat().st_size for p in source.rglob("*") if p.is_file())
    seen, report = recorder()
    convert(source, tmp_path / "trec", to_format="trec", progress=report)
    assert seen[0] == (0, size)
    assert seen[-1] == (size, size)


def test_convert_refuses_a_bad_progress_before_writing(tmp_path: Path) -> None:
    run, _ = ranked_files(tmp_path, 2)
    with pytest.raises(ValueError, match=r"progress must be a bool or a callable"):
        convert(run, tmp_path / "run.trec", progress="yes")  # type: ignore[arg-type]
    assert not (tmp_path / "run.trec").exists()


# -- compare --------------------------------------------------------------------------------


def two_systems(n_queries: int) -> tuple[dict[str, dict[str, list[str]]], dict[str, Any]]:
    qrels = {f"q{q}": {f"d{q}": 1} for q in range(n_queries)}
    a = {f"q{q}": ["x", f"d{q}"] if q % 3 else [f"d{q}"] for q in range(n_queries)}
    b = {f"q{q}": [f"d{q}"] if q % 5 else ["x", "y", f"d{q}"] for q in range(n_queries)}
    return {"a": a, "b": b}, qrels


def test_compare_reports_scoring_each_run_then_resampling() -> None:
    systems, qrels = two_systems(2000)
    seen, report = recorder()
    options: dict[str, Any] = {"metrics": ("mrr@10",), "test": "randomization", "seed": 3}
    result = compare(systems, qrels, n_resamples=3000, progress=report, **options)
    scoring_a, scoring_b, resampling = phases(seen)
    assert scoring_a == scoring_b == [(0, 1), (1, 1)]
    assert_complete(resampling)
    assert resampling[-1] == (6000, 6000)  # the bootstrap interval's, then the permutations
    assert len(resampling) > 3  # batches of resamples on the way, not one jump
    assert result == compare(systems, qrels, n_resamples=3000, **options)


def test_compare_resampling_totals_every_comparison() -> None:
    import numpy as np

    systems, qrels = two_systems(40)
    systems["c"] = dict(systems["a"])
    seen, report = recorder()
    result = compare(
        systems, qrels, metrics=("mrr@10", "ndcg@10"), test="bootstrap", n_resamples=500,
        seed=1, progress=report,
    )  # fmt: skip
    resampling = phases(seen)[-1]
    assert_complete(resampling)
    expected = sum(
        planned_resamples(
            np.array(result.scores[p.b][p.metric]) - np.array(result.scores[p.a][p.metric]),
            "bootstrap",
            500,
        )
        for p in result.comparisons
    )
    assert resampling[-1] == (expected, expected)
    assert expected == 500 * 4  # a == c: their differences are all 0, and draw nothing


def test_compare_with_paired_t_has_no_resampling_phase() -> None:
    systems, qrels = two_systems(30)
    seen, report = recorder()
    compare(systems, qrels, metrics=("mrr@10",), progress=report)
    assert phases(seen) == [[(0, 1), (1, 1)], [(0, 1), (1, 1)]]  # each run's scoring


def test_compare_refuses_a_bad_progress() -> None:
    systems, qrels = two_systems(3)
    with pytest.raises(ValueError, match=r"progress must be a bool or a callable"):
        compare(systems, qrels, progress="yes")  # type: ignore[arg-type]


def test_compare_passes_progress_to_the_runs_it_reads(tmp_path: Path) -> None:
    systems, qrels = two_systems(5)
    paths = []
    for name, run in systems.items():
        paths.append(tmp_path / f"{name}.trec")
        write_run(paths[-1], run)
    seen, report = recorder()
    compare(paths, qrels, metrics=("mrr@10",), progress=report)
    cut = phases(seen)
    assert [one[0] for one in cut] == [
        (0, paths[0].stat().st_size), (0, 1), (0, paths[1].stat().st_size), (0, 1),
    ]  # fmt: skip
    for one in cut:
        assert_complete(one)
