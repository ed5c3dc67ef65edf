"""docs/migrating.md's claims about the compat shims, read from the page: every measure it
says a shim takes is taken, and every one it says is not implemented is refused by name."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest

from ef.evaluation import InputWarning, UnknownNameError
from ef.evaluation._engine.measures import parse_measure, parse_ranx_measure
from ef.evaluation.compat import ir_measures, ranx
from ef.evaluation.compat import pytrec_eval as ours

PAGE = (Path(__file__).parents[2] / "docs" / "migrating.md").read_text(encoding="utf-8")
PROSE = re.sub(r"\s+", " ", PAGE)  # sentences whole, wherever their lines break
QRELS = {"q1": {"d1": 1, "d2": 2}, "q2": {"d3": 1}}
RUN = {"q1": {"d1": 1.5, "d9": 2.0}, "q2": {"d3": 0.5}}


def _between(start: str, end: str, text: str = PROSE) -> str:
    """The page's ``text`` from ``start`` to ``end`` (both must be there)."""
    head = text.index(start)
    return text[head : text.index(end, head)]


def _names(text: str) -> list[str]:
    """The backquoted words of ``text`` that look like measure names."""
    return [n for n in re.findall(r"`([^`\s]+)`", text) if re.fullmatch(r"[\w.,@()='-]+", n)]


def test_the_pytrec_eval_names_the_page_lists_are_taken() -> None:
    listed = _names(_between("trec_eval's measure names (", "for the run's judged queries"))
    assert {"map", "ndcg_cut.10", "P.5,10", "official", "all_trec"} <= set(listed)
    for name in listed:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", InputWarning)  # all_trec's relstring
            result = ours.RelevanceEvaluator(QRELS, {name}).evaluate(RUN)
        assert result["q1"], name


def test_what_the_page_says_pytrec_eval_s_nicknames_leave_out_is_all_they_leave_out() -> None:
    match = re.search(r"- `(\w+)`, the one member of `all_trec` that is no number", PROSE)
    assert match is not None
    left_out = match[1]
    for nickname in ours.supported_nicknames:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            ours.RelevanceEvaluator(QRELS, {nickname})
        said = [str(w.message) for w in caught if w.category is InputWarning]
        expected = [f"ef-evaluation does not implement trec_eval's {left_out}: left out of the "
                    "results"] if left_out in ours.supported_nicknames[nickname] else []  # fmt: skip
        assert said == expected, nickname
    with pytest.raises(UnknownNameError, match=left_out):
        ours.RelevanceEvaluator(QRELS, {left_out})


def test_runid_and_num_q_are_as_the_page_says() -> None:
    assert "`num_q` is 1.0, and `runid` is 0.0" in PROSE
    assert ours.RelevanceEvaluator(QRELS, {"num_q"}).evaluate(RUN) == {
        "q1": {"num_q": 1.0},
        "q2": {"num_q": 1.0},
    }
    assert ours.RelevanceEvaluator(QRELS, {"runid"}).evaluate(RUN)["q2"] == {"runid": 0.0}


def test_the_trec_eval_table_s_measures_resolve_by_both_names() -> None:
    table = _between("| trec_eval | ef-evaluation | note |", "### How it is checked", PAGE)
    rows = [line.split("|")[1:3] for line in table.splitlines()[2:] if line.startswith("|")]
    assert len(rows) >= 9
    for trec_names, ef_names in rows:
        theirs, mine = _names(trec_names), _names(ef_names)
        if ef_names.strip() == "-":  # not implemented: refused by name
            for name in theirs:
                with pytest.raises(UnknownNameError, match=name):
                    parse_measure(name)
            continue
        for name in mine:
            assert parse_measure(name), name
        for name in theirs:
            assert parse_measure(name), name


def test_the_ranx_metrics_the_page_lists_are_taken_and_the_missing_ones_refused() -> None:
    listed = _names(_between("takes ranx's metric strings (", "returns ranx's shapes"))
    assert {"ndcg@10", "map@100-l2", "mrr", "r-precision"} <= set(listed)
    for name in listed:
        assert parse_ranx_measure(name), name
    assert ranx.evaluate(QRELS, RUN, listed)  # and scored
    missing = re.search(r"- `(\w+)` and `(\w+)` are not implemented \(ranx's RBP", PROSE)
    assert missing is not None
    for name in missing.groups():
        with pytest.raises(UnknownNameError, match=name):
            parse_ranx_measure(f"{name}@10" if name == "hits" else f"{name}.95")


def test_the_ir_measures_names_the_page_lists_are_taken_and_the_missing_ones_refused() -> None:
    listed = _names(_between("take ir_measures' measure objects (", "importable"))
    assert {"nDCG@10", "P(rel=2)@5", "AP", "RR@10", "R@100"} <= set(listed)
    assert ir_measures.calc_aggregate(listed, QRELS, RUN).keys() == set(listed)
    refused = _between("Measures ef-evaluation does not implement (", "## ranx")
    for name in ("SDCG", "IPrec"):
        assert f"`{name}`" in refused
        with pytest.raises(UnknownNameError, match=name):
            ir_measures.parse_measure(f"{name}@10" if name == "SDCG" else f"{name}(recall=0.5)")
