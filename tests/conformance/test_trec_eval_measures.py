"""Every trec_eval measure we implement, against trec_eval's own outputs, through measure strings.

``test_trec_eval_golden`` checks the five original metrics. This module reads every measure a
golden file prints, turns its printed name back into a measure string in trec_eval's syntax
(``relative_P_5`` -> ``relative_P.5``, ``set_F``, ``ndcg_1=3,2=9,4=4.5`` -> ``ndcg.1=3,2=9,4=4.5``),
resolves it with our parser and compares what we compute, per query and for ``all``
(``%.4f``, see ``_trec.matches_printed``). Measures we do not implement (gm_map, iprec,
Rprec_mult, utility, 11pt_avg, G, binG, ndcg_rel, Rndcg, set_map, num_nonrel_judged_ret,
gm_bpref, relstring) are listed, so a new one cannot slip through unnoticed.

trec_eval's global switches become measure parameters or cutoffs:

* ``-l2`` (``out.test.aql``): ``rel=2`` on every measure that takes it; nDCG takes none,
  since trec_eval does not threshold its gains, and neither does trec_eval's graded ``rbp``.
* ``-M100`` (``out.test.aqcM``): the ranking cut at 100, which is ``@100`` for the measures
  of the whole ranking (``map`` -> ``map@100``, ``Rprec`` -> ``rprec@100``) and changes
  nothing for a cutoff up to 100. Measures whose ``-M`` reading differs from ours (``ndcg``,
  whose ideal is not cut; ``set_P``, ``set_F`` and ``set_relative_P``, which divide by the docs
  retrieved; cutoffs past 100) are left out of that file, and only of that one.
* ``-c``: ``averaging="qrels"``; without it, ``averaging="run"``, which counts a judged topic
  with no relevant doc (0 on every relevance measure), as trec_eval does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from ef.evaluation import evaluate_run
from ef.evaluation._engine.measures import Measure, parse_measure

from ..conftest import shared_path
from ._trec import Golden, matches_printed

TREC = ("validation", "trec_eval")
TREC9 = ("validation", "trec_eval", "v9.0.8")
GENERATED = ("validation", "generated")

_CUT = re.compile(r"(?P<family>P|recall|ndcg_cut|map_cut|relative_P|success|unj)_(?P<k>\d+)")
#: Printed names of the whole-ranking measures, as measure strings. trec_eval's own ``map``,
#: ``ndcg`` and ``rbp`` would be read as ours (every cutoff; binary RBP), so they are spelled
#: out.
_UNCUT = {
    "map": "AP",
    "ndcg": "nDCG",
    "rbp": "rbp(graded=True)",
    **{
        name: name
        for name in (
            "Rprec", "bpref", "infAP", "recip_rank", "num_ret", "num_rel", "num_rel_ret",
            "set_P", "set_recall", "set_F", "set_relative_P", "rbp_resid",
        )
    },
}  # fmt: skip
#: What the golden files print and we do not implement.
NOT_IMPLEMENTED = re.compile(
    r"runid|num_q|gm_map|gm_bpref|iprec_at_recall_.*|Rprec_mult_.*|utility.*|11pt_avg.*|binG|G"
    r"|ndcg_rel|Rndcg|set_map|num_nonrel_judged_ret|relstring.*"
)
#: Under -M, these read the truncated ranking differently from our cutoff (see above).
_NOT_DEPTH = {"ndcg", "set_P", "set_F", "set_relative_P"}


def measure_string(printed: str) -> str | None:
    """The measure string, in trec_eval's syntax where ours does not shadow it.

    >>> measure_string("relative_P_5"), measure_string("ndcg_1=3,2=9"), measure_string("map")
    ('relative_P.5', 'ndcg.1=3,2=9', 'AP')
    """
    match = _CUT.fullmatch(printed)
    if match:
        return f"{match['family']}.{match['k']}"
    if printed in _UNCUT:
        return _UNCUT[printed]
    if printed.startswith("ndcg_") and "=" in printed:
        return "ndcg." + printed.removeprefix("ndcg_")
    return None


def with_switches(measure: Measure, rel: int | None, depth: int | None) -> Measure | None:
    """``measure`` under trec_eval's ``-l rel`` and ``-M depth``; None if ours cannot say it."""
    params = dict(measure.params)
    # trec_eval's rbp has graded gains, which -l does not touch (nor nDCG's: its rel= is
    # ranx's threshold, which trec_eval does not have).
    thresholded = measure.metric.name != "ndcg" and not params.get("graded")
    if rel is not None and "rel" in measure.kwargs and thresholded:
        params["rel"] = float(rel)
    k = measure.k
    if depth is not None:
        if k is None:
            k = depth
        elif k > depth:
            return None
    order = [p.name for p in measure.metric.params]
    return Measure(measure.metric, k, sorted(params.items(), key=lambda kv: order.index(kv[0])))


@dataclass(frozen=True)
class Case:
    id: str
    qrels: tuple[str, ...]
    run: tuple[str, ...]
    golden: tuple[str, ...]
    averaging: str  # "run" without -c, "qrels" with it
    rel: int | None = None  # -l
    depth: int | None = None  # -M
    #: 10.0 -c -q prints the missing topics too; 9.0.8 does not.
    prints_missing: bool = False
    #: The per-query values at least this many measures must be compared for (a guard).
    at_least: int = 1


def _cases() -> list[Case]:
    cases = []
    for version, folder in (("10.0", TREC), ("9.0.8", TREC9)):
        qrels, results, trunc = (
            (*folder, n) for n in ("qrels.test", "results.test", "results.trunc")
        )
        new = version == "10.0"
        cases += [
            Case(f"{version}/out.test", qrels, results, (*folder, "out.test"), "run", at_least=16),
            Case(f"{version}/out.test.a", qrels, results, (*folder, "out.test.a"), "run", at_least=61 + 5 * new),
            Case(f"{version}/out.test.aq", qrels, results, (*folder, "out.test.aq"), "run", at_least=61 + 5 * new),
            Case(
                f"{version}/out.test.aqc", qrels, trunc, (*folder, "out.test.aqc"), "qrels",
                prints_missing=new, at_least=61 + 5 * new,
            ),
            Case(
                f"{version}/out.test.aqcM", qrels, trunc, (*folder, "out.test.aqcM"), "qrels",
                depth=100, prints_missing=new, at_least=42 + 5 * new,
            ),
            Case(
                f"{version}/out.test.aql", (*folder, "qrels.rel_level"), results,
                (*folder, "out.test.aql"), "run", rel=2, at_least=61 + 5 * new,
            ),
            Case(
                f"{version}/out.test.meas_params", qrels, results, (*folder, "out.test.meas_params"),
                "run", at_least=3,
            ),
        ]  # fmt: skip
    cases.append(
        Case(
            "10.0/out.comment.test", (*TREC, "qrels.comment.test"),
            (*TREC, "results.comment.test"), (*TREC, "out.comment.test"), "run", at_least=16,
        )
    )  # fmt: skip
    for version in ("9.0.8", "10.0"):
        cases.append(
            Case(
                f"cacm-{version}", ("datasets", "cacm", "qrels.cacm.txt"),
                ("datasets", "cacm", "run.cacm-bm25.txt"),
                (*GENERATED, f"cacm-bm25.trec_eval-{version}.all_trec.q.txt"), "run",
                at_least=61 + 5 * (version == "10.0"),
            )
        )  # fmt: skip
        for run in ("k1_1.2-b_0.75", "k1_0.9-b_0.4"):
            cases.append(
                Case(
                    f"scifact-{run}-{version}",
                    ("datasets", "beir-anserini", "qrels.beir-v1.0.0-scifact.test.txt"),
                    ("datasets", "scifact-runs", f"run.scifact.test.bm25s-lucene-{run}.txt.gz"),
                    (*GENERATED, f"scifact.bm25s-lucene-{run}.trec_eval-{version}.all_trec.c.q.txt"),
                    "qrels", prints_missing=version == "10.0",
                    at_least=61 + 5 * (version == "10.0"),
                )
            )  # fmt: skip
    return cases


CASES = _cases()


def _measures(golden: Golden, case: Case) -> dict[str, str]:
    """``{printed trec_eval name: our key}`` for every measure of the file we implement."""
    printed = {name for values in golden.values.values() for name in values}
    unknown = sorted(
        name
        for name in printed
        if measure_string(name) is None and not NOT_IMPLEMENTED.fullmatch(name)
    )
    assert not unknown, f"map these trec_eval measures (or list them as not implemented): {unknown}"
    keys = {}
    for name in sorted(printed):
        spec = measure_string(name)
        if spec is None or (case.depth is not None and name in _NOT_DEPTH):
            continue
        (measure,) = parse_measure(spec)
        switched = with_switches(measure, case.rel, case.depth)
        if switched is not None:
            keys[name] = switched.key
    return keys


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_every_implemented_measure_matches(case: Case) -> None:
    golden = Golden(shared_path(*case.golden))
    keys = _measures(golden, case)
    assert len(keys) >= case.at_least, sorted(keys)
    report = evaluate_run(
        shared_path(*case.run),
        shared_path(*case.qrels),
        metrics=list(dict.fromkeys(keys.values())),
        averaging=case.averaging,  # type: ignore[arg-type]
    )
    if golden.num_q is not None:
        assert report.n_queries == golden.num_q
    printed_queries = golden.query_ids
    ours = set(report.per_query)
    if not case.prints_missing:
        ours -= set(report.missing)
    if printed_queries:
        assert printed_queries == ours
    bad = []
    compared = 0
    for qid in ["all", *sorted(printed_queries)]:
        values = report.metrics if qid == "all" else report.per_query[qid]
        for name, key in keys.items():
            printed = golden.values[qid].get(name)
            if printed is None:
                continue
            compared += 1
            if not matches_printed(values[key], printed):
                bad.append(f"{qid} {name} ({key}): ours {values[key]!r}, trec_eval {printed}")
    assert compared >= len(keys)
    assert not bad, f"{len(bad)} of {compared} differ from {case.golden[-1]}:\n" + "\n".join(
        bad[:30]
    )
