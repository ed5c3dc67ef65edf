"""build_site(): the marks are compare()'s on the same per-query values, every name is shown
as text, and a build replaces a site whole or not at all."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ef.evaluation import MissingDependencyError, Record, build_site, compare

from .records import METRICS, QUERIES, SCRIPT_NAME, parsed, record, scenario, tables

pytestmark = pytest.mark.filterwarnings("ignore::ef.evaluation.InputWarning")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("built") / "site"
    build_site(scenario(), out, baseline="bm25", queries={"scifact": QUERIES})
    return out


def _page(site: Path, prefix: str, name: str) -> str:
    """The page whose file starts with ``prefix`` and whose title is ``name``."""
    for path in sorted(site.glob(f"{prefix}-*.html")):
        text = path.read_text(encoding="utf-8")
        if f"<h1>{name}</h1>" in text:
            return text
    raise AssertionError(f"no {prefix} page titled {name}")


def _escaped(name: str) -> str:
    return name.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _latest(records: list[Record], dataset: str) -> dict[str, Record]:
    latest: dict[str, Record] = {}
    for found in records:
        if found.dataset == dataset:
            latest[found.system] = found
    return latest


def test_the_leaderboard_marks_are_compares_against_the_baseline(site: Path) -> None:
    latest = _latest(scenario(), "scifact")
    expected = compare(
        {name: r.report for name, r in latest.items()}, metrics=METRICS, baseline="bm25", seed=0
    )
    rows = tables(_page(site, "dataset", "scifact"))["leaderboard"]
    shown = {}
    for row in rows:
        name = row[0][0].removesuffix(" (baseline)")
        for key, (text, marks) in zip(METRICS, row[3 : 3 + len(METRICS)], strict=True):
            shown[name, key] = (text.split()[0], marks)
    assert {name for name, _ in shown} == set(latest)
    seen = set()
    for (name, key), (text, marks) in shown.items():
        assert text == f"{latest[name].report.metrics[key]:.4f}"
        if name == "bm25":
            assert marks == set()
            continue
        pair = expected.pair("bm25", name, metric=key)
        mark = {"ef-up"} if pair.difference > 0 else {"ef-down"}
        assert marks == (mark if pair.reject else set()), (name, key, pair)
        seen |= marks
    assert seen == {"ef-up", "ef-down"}  # the scenario has both, so the check above bites


def test_the_leaderboard_is_sorted_by_the_metric_first_and_says_so(site: Path) -> None:
    page = _page(site, "dataset", "scifact")
    rows = tables(page)["leaderboard"]
    values = [float(row[3][0].split()[0]) for row in rows]
    assert values == sorted(values, reverse=True)
    assert re.search(r'<th [^>]*aria-sort="descending"><button [^>]*>ndcg@10<', page)
    assert len(re.findall(r"<th [^>]*aria-sort=", page)) == 1


def test_every_table_is_in_the_order_its_aria_sort_says(site: Path) -> None:
    checked = 0
    for path in sorted(site.glob("*.html")):
        found = parsed(path.read_text(encoding="utf-8"))
        for table, (column, direction) in found.sorted.items():
            keys = [row[column] for row in found.keys[table]]
            present = [k for k in keys if k != ""]
            assert keys == present + [""] * (len(keys) - len(present)), (path.name, table)
            numeric = all(re.fullmatch(r"-?[\d.e+-]+", k) for k in present)
            values: list[float] | list[str] = [float(k) for k in present] if numeric else present
            assert values == sorted(values, reverse=direction == "descending"), (
                path.name,
                table,
            )
            checked += 1
    assert checked >= 5


def test_a_regression_is_a_significant_drop_against_the_previous_record(site: Path) -> None:
    dense = [r for r in scenario() if r.system == "dense" and r.dataset == "scifact"]
    rows = tables(_page(site, "system", "dense"))["table-0"]  # scifact's history comes first
    assert len(rows) == len(dense)
    regressions = 0
    for i, row in enumerate(rows):
        for key, (text, marks) in zip(METRICS, row[3:], strict=True):
            assert text.split()[0] == f"{dense[i].report.metrics[key]:.4f}"
            if i == 0:
                assert marks == set()
                continue
            tested = compare(
                {"previous": dense[i - 1].report, "current": dense[i].report},
                metrics=METRICS,
                baseline="previous",
                seed=0,
            ).pair("previous", "current", metric=key)
            dropped = tested.reject and tested.difference < 0
            assert marks == ({"ef-down"} if dropped else set()), (i, key)
            regressions += dropped
    assert regressions > 0


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    first=st.lists(st.sampled_from([0, 1, 3, 5, None]), min_size=12, max_size=12),
    second=st.lists(st.sampled_from([0, 1, 3, 5, None]), min_size=12, max_size=12),
)
def test_regressions_on_any_two_records(
    tmp_path_factory: pytest.TempPathFactory,
    first: list[int | None],
    second: list[int | None],
) -> None:
    records = [record("sys", first, 0), record("sys", second, 1)]
    out = tmp_path_factory.mktemp("history") / "site"
    build_site(records, out)
    rows = tables(_page(out, "system", "sys"))["table-0"]
    tested = compare(
        {"previous": records[0].report, "current": records[1].report},
        metrics=METRICS,
        baseline="previous",
        seed=0,
    )
    for key, (_, marks) in zip(METRICS, rows[1][3:], strict=True):
        pair = tested.pair("previous", "current", metric=key)
        assert (marks == {"ef-down"}) == (pair.reject and pair.difference < 0)


def test_the_drill_down_counts_wins_ties_and_losses_query_by_query(site: Path) -> None:
    latest = _latest(scenario(), "scifact")
    page = _page(site, "pair", "weak against bm25")
    shown = tables(page)
    for key in METRICS:
        rows = shown[f"per-query-{_slug_of(page, key)}"]
        by_query = {row[0][0]: row for row in rows}
        assert set(by_query) == set(QUERIES)
        outcomes = {"win": 0, "tie": 0, "loss": 0}
        for qid, row in by_query.items():
            a = latest["bm25"].report.per_query[qid][key]
            b = latest["weak"].report.per_query[qid][key]
            assert row[1][0] == QUERIES[qid]  # the text, shown as text
            assert (row[2][0], row[3][0]) == (f"{a:.4f}", f"{b:.4f}")
            outcome = "win" if b > a else "loss" if b < a else "tie"
            assert row[5][0] == outcome
            outcomes[outcome] += 1
        pair = compare(
            {"bm25": latest["bm25"].report, "weak": latest["weak"].report},
            metrics=METRICS,
            baseline="bm25",
            seed=0,
        ).pair("bm25", "weak", metric=key)
        assert (pair.wins, pair.ties, pair.losses) == (
            outcomes["win"],
            outcomes["tie"],
            outcomes["loss"],
        )


def _slug_of(page: str, key: str) -> str:
    found = re.search(rf'<caption class="ef-title">{re.escape(key)} per query</caption>', page)
    assert found
    ident = re.findall(r'<table class="ef-table ef-sortable" id="per-query-([^"]+)">', page)
    return str(next(i for i in ident if i.startswith(re.sub(r"[^a-z0-9]+", "-", key))))


def test_every_pair_has_a_drill_down_linked_from_its_leaderboard(site: Path) -> None:
    page = _page(site, "dataset", "scifact")
    linked = set(re.findall(r'href="(pair-[^"]+\.html)"', page))
    assert len(linked) == 4 * 3 // 2
    assert all((site / name).is_file() for name in linked)


def test_every_name_and_query_is_shown_as_text(site: Path) -> None:
    pages = {p.name: p.read_text(encoding="utf-8") for p in site.glob("*.html")}
    for name, text in pages.items():
        assert "window.pwned" not in text.replace(_escaped(SCRIPT_NAME), ""), name
        assert text.count("<script>") == 1, name  # the site's own script, once
        assert "<b>topic</b>" not in text, name
    assert _escaped(SCRIPT_NAME) in pages["index.html"]
    assert any(_escaped(QUERIES["q1"]) in text for text in pages.values())


def test_each_entry_shows_its_manifest_ties_note_and_skipped_queries(site: Path) -> None:
    page = _page(site, "system", "bm25")
    skipping = next(r for r in scenario() if r.dataset == "nfcorpus" and r.system == "bm25")
    assert dict(skipping.report.skipped)  # the scenario skips a query, so the check bites
    for qid, reason in skipping.report.skipped.items():
        assert f">{qid}<" in page
        assert _escaped(reason) in page
    assert '<pre class="ef-manifest">' in page
    assert f"&quot;ef_evaluation&quot;: &quot;{skipping.report.manifest['ef_evaluation']}" in page
    assert "Ties:</strong> ties (trec_eval)" in page
    assert "Skipped queries:</strong> none." in page  # scifact's record skips none


def test_the_same_records_build_the_same_files(tmp_path: Path) -> None:
    records = scenario()
    one, two = tmp_path / "one", tmp_path / "two"
    build_site(records, one)
    build_site(records, two)
    names = sorted(p.name for p in one.iterdir())
    assert names == sorted(p.name for p in two.iterdir())
    for name in names:
        assert (one / name).read_bytes() == (two / name).read_bytes(), name


def test_a_failed_build_leaves_the_site_before_it_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "site"
    build_site(scenario()[:2], out)
    before = {p.name: p.read_bytes() for p in out.iterdir()}

    def broken(*_args: object, **_kwargs: object) -> str:
        raise RuntimeError("a page failed")

    monkeypatch.setattr("ef.evaluation._site.build.system_page", broken)
    with pytest.raises(RuntimeError, match="a page failed"):
        build_site(scenario(), out)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]  # no building dir left


def test_a_rebuild_replaces_the_site(tmp_path: Path) -> None:
    out = tmp_path / "site"
    build_site(scenario(), out)
    build_site(scenario()[:2], out)
    assert len(list(out.glob("pair-*.html"))) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_a_directory_that_is_not_a_site_is_never_replaced(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(FileExistsError, match="not a site built by ef-eval site"):
        build_site(scenario(), tmp_path)
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"
    with pytest.raises(FileExistsError, match="is a file"):
        build_site(scenario(), tmp_path / "notes.txt")


def test_no_records_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no records"):
        build_site([], tmp_path / "site")
    assert not (tmp_path / "site").exists()


def test_a_baseline_without_a_record_falls_back_to_the_first_recorded(tmp_path: Path) -> None:
    build_site(scenario(), tmp_path / "site", baseline="nobody")
    page = _page(tmp_path / "site", "dataset", "scifact")
    assert 'bm25 <span class="ef-muted">(baseline)</span>' in page


def test_without_scipy_the_error_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "scipy.stats", None)
    with pytest.raises(MissingDependencyError, match=r"ef-evaluation\[stats\]"):
        build_site(scenario(), tmp_path / "site")
    assert not (tmp_path / "site").exists()
