"""trec_eval's one table of names agrees with what reads it: the metrics' declarations, the
parser, the drop-in's columns."""

from __future__ import annotations

import pytest

from ef.evaluation import Registry
from ef.evaluation._engine.measures import (
    parse_measure,
    parse_trec_eval_measure,
    trec_eval_printed,
)
from ef.evaluation._engine.trec_eval import Column, Options, columns, measure_names
from ef.evaluation._engine.trec_vocabulary import (
    MEASURE_SETS,
    TREC_BY_NAME,
    TREC_EVAL_SETS,
    TREC_MEASURES,
    TrecMeasure,
)

BUILTINS = Registry.load(autoload=False)
WITH_METRIC = [m for m in TREC_MEASURES if m.metric is not None]


@pytest.mark.parametrize("entry", WITH_METRIC, ids=lambda m: m.name)
def test_each_measure_s_metric_declares_its_trec_eval_name(entry: TrecMeasure) -> None:
    # The metric's Synonym(TREC, name) is what the parser and `ef-eval metrics` read: it must
    # name the metric the table scores the measure with.
    assert entry.metric is not None
    metric = BUILTINS.retrieval_metric(entry.metric)
    names = {s.name for s in metric.synonyms if s.syntax == "trec_eval"}
    assert entry.name in names


def test_every_built_in_trec_eval_synonym_is_a_measure_of_the_table() -> None:
    for metric in BUILTINS.retrieval_metrics.values():
        for synonym in metric.synonyms:
            if synonym.syntax == "trec_eval":
                assert TREC_BY_NAME[synonym.name].metric == metric.name


def test_the_sets_name_measures_of_the_table_in_its_versions() -> None:
    for version, sets in MEASURE_SETS.items():
        for members in sets.values():
            assert all(version in TREC_BY_NAME[m].versions for m in members)
    assert set(TREC_EVAL_SETS["all_trec"]) == {
        m.name for m in TREC_MEASURES if "9.0.8" in m.versions
    }
    assert measure_names("10.0") == tuple(m.name for m in TREC_MEASURES)


@pytest.mark.parametrize("entry", WITH_METRIC, ids=lambda m: m.name)
def test_the_parser_and_the_drop_in_score_a_measure_with_one_metric(entry: TrecMeasure) -> None:
    version = entry.versions[0]
    cols = columns([entry.name], Options(version=version), registry=BUILTINS)
    assert {c.measure.metric.name for c in cols if c.measure} == {entry.metric}
    # 10.0's measures are no set member of 9.0.8, pytrec_eval's: a bare unj there is cut at
    # trec_eval's P cutoffs, not 10.0's 5, 10, 20 (left as it is, so no key changes).
    if entry.members and "9.0.8" in entry.versions:
        parsed = [m for s in entry.members for m in parse_measure(s, registry=BUILTINS)]
        assert {m.metric.name for m in parsed} == {entry.metric}
        assert parse_trec_eval_measure(entry.name, registry=BUILTINS) == parsed


@pytest.mark.parametrize(
    "spec",
    [
        "iprec_at_recall.0.5,0.25",
        "Rprec_mult.0.5",
        "utility.2,-1,0,0",
        "11pt_avg.0.2,0.8",
        "set_F.0.5",
        "ndcg.1=3,2=9",
        "P.5,10",
        "success.1",
    ],
)
def test_the_parser_reads_trec_eval_s_parameters_as_the_drop_in_does(spec: str) -> None:
    # The drop-in adds its switches (-l, -N, the version's rounding); the rest is the same.
    cols = columns([spec], Options(), registry=BUILTINS)
    parsed = parse_measure(spec, registry=BUILTINS)
    assert len(parsed) == len(cols)
    by_point = sorted(parsed, key=lambda m: (m.k or 0, m.params))
    for measure, col in zip(by_point, sorted(cols, key=_order), strict=True):
        assert col.measure is not None
        assert (measure.metric.name, measure.k) == (col.measure.metric.name, col.measure.k)
        assert set(measure.params) <= set(col.measure.params)
        printed = trec_eval_printed(measure)
        assert printed in (None, col.name)


def _order(col: Column) -> tuple[int, tuple[tuple[str, object], ...]]:
    assert col.measure is not None
    return (col.measure.k or 0, tuple(p for p in col.measure.params if p[0] in _POSITIONAL))


_POSITIONAL = frozenset({"recall", "mult"})


def test_a_wrong_count_of_trec_eval_numbers_is_refused() -> None:
    with pytest.raises(ValueError, match=r"utility takes 4 numbers after the dot"):
        parse_measure("utility.2", registry=BUILTINS)
