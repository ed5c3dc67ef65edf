"""The metric catalogue: every metric of a registry, its syntaxes and parameters.

``ef-eval metrics`` lists it, and ``docs/metrics.md`` is generated from it (for the
built-ins) with ``python -m ef.evaluation._presentation.catalogue docs/metrics.md``; a test
keeps the page equal to what this module makes.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._engine.measures import Measure, describe_syntaxes, format_value, parse_measure
from ..metrics.retrieval.diversity import DIVERSITY_MEASURES

if TYPE_CHECKING:
    from .._plugin_engine.registry import Registry
    from ..interfaces import MetricParam, RagMetric, RetrievalMetric, Synonym

__all__ = ["catalogue_entries", "catalogue_markdown"]

_SYNTAX_TITLES = {"ours": "ours", "ir_measures": "ir_measures", "trec_eval": "trec_eval"}


def _type_name(param: MetricParam) -> str:
    return param.type.__name__


def _param_entry(param: MetricParam) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "name": param.name,
        "type": _type_name(param),
        "default": None if param.default is None else format_value(param.default),
        "description": param.description,
    }
    if param.choices:
        entry["choices"] = [format_value(choice) for choice in param.choices]
    return entry


def _shadowed(metric: RetrievalMetric, synonym: Synonym, registry: Registry) -> str | None:
    """The measure string to write for ``synonym`` where our syntax reads its name otherwise
    (trec_eval's ``map`` is the whole ranking; our bare ``map`` is every cutoff)."""
    if synonym.cutoff:
        return None
    intended = Measure(metric, None, _ordered(metric, dict(synonym.params)))
    ours = parse_measure(synonym.name, registry=registry)
    if ours == [intended]:
        return None
    return intended.key


def _ordered(metric: RetrievalMetric, params: dict[str, Any]) -> list[tuple[str, Any]]:
    return [
        (p.name, params[p.name])
        for p in metric.params
        if p.name in params and params[p.name] != p.default
    ]


def _shadows(metric: RetrievalMetric, registry: Registry) -> dict[str, str]:
    """``{other tool's name: what to write}`` where our syntax reads that name otherwise."""
    shadows = {}
    for synonym in metric.synonyms:
        write = _shadowed(metric, synonym, registry)
        if write is not None:
            shadows[synonym.name] = write
    return shadows


def catalogue_entries(registry: Registry) -> list[dict[str, Any]]:
    """One plain dict per metric, retrieval metrics first, each sorted by name.

    >>> from ef.evaluation import Registry
    >>> entry = catalogue_entries(Registry.load(autoload=False))[0]
    >>> entry["name"], entry["syntaxes"]["trec_eval"], [p["name"] for p in entry["parameters"]]
    ('binary_gain', ['binG'], ['rel', 'judged_only'])
    """
    entries: list[dict[str, Any]] = []
    for name, metric in registry.retrieval_metrics.items():
        entries.append(
            {
                **_head(name, metric, registry),
                "syntaxes": {k: list(v) for k, v in describe_syntaxes(metric).items()},
                "write_instead": _shadows(metric, registry),
                "cutoff": metric.cutoff,
                "aggregate": metric.aggregate,
                "formula": metric.formula,
                "citation": metric.citation,
            }
        )
    for name, rag in registry.rag_metrics.items():
        entries.append(
            {
                **_head(name, rag, registry),
                "syntaxes": {"ours": [f"{name}@k", f"{name}@all"] if rag.cutoff else [name]},
                "cutoff": rag.cutoff,
                "formula": rag.formula,
                "citation": rag.citation,
            }
        )
    return entries


def _head(name: str, metric: RetrievalMetric | RagMetric, registry: Registry) -> dict[str, Any]:
    """The first keys of a metric's entry, retrieval or RAG alike."""
    return {
        "name": name,
        "kind": metric.kind,
        "plugin": registry.provider(name).name,
        "description": metric.description,
        "parameters": [_param_entry(p) for p in metric.params],
    }


def _code(text: str) -> str:
    return f"`{text}`" if text else ""


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


_INTRO = """\
# Metric catalogue

<!-- Generated from the registry by
     `python -m ef.evaluation._presentation.catalogue docs/metrics.md`.
     Do not edit by hand: tests/test_catalogue.py compares this page with the generator. -->

Every built-in metric, with its names in the three measure syntaxes that `metrics=` and
`ef-eval evaluate -m` accept, its parameters, its definition and where it comes from.
`ef-eval metrics` lists the same for every installed plugin too. The rules of the syntaxes
and the definitions in full are in [](semantics.md).

- **Ours:** `name@k` (one cutoff), `name` (every cutoff of `k_values`, or the whole ranking
  for a metric without cutoffs), `name@all` (the whole ranking), with parameters
  `name(param=value,...)@k`.
- **ir_measures':** `nDCG@10`, `P(rel=2)@5`, `AP(judged_only=True)`; a name without `@k` is
  the whole ranking, as in ir_measures.
- **trec_eval's:** `P.5,10`, `ndcg_cut.10`, `recip_rank`, `ndcg.1=3,2=9`; a family with
  cutoffs named alone (`P`) is every cutoff of `k_values`.

Report keys are canonical: our name, the parameters that differ from their defaults, then
`@k`, `@all` or nothing. `P(rel=2)@5`, `precision(rel=2)@5` and `precision(rel=2.0)@5` are all
reported as `precision(rel=2)@5`. Where a name means one thing in our syntax and another in
trec_eval's (`map`, `ndcg`, `rbp`), ours wins; the tables say what to write instead.
"""


def _param_table(parameters: list[dict[str, Any]]) -> list[str]:
    lines = ["| parameter | type | default | meaning |", "|---|---|---|---|"]
    for param in parameters:
        default = _code(param["default"]) if param["default"] is not None else "unset"
        meaning = param["description"]
        if param.get("choices"):
            meaning += " (one of " + ", ".join(_code(c) for c in param["choices"]) + ")"
        lines.append(f"| `{param['name']}` | {param['type']} | {default} | {_cell(meaning)} |")
    return [*lines, ""]


def _rag_section(entries: list[dict[str, Any]]) -> list[str]:
    lines = [
        "## RAG metrics",
        "",
        "A RAG metric string is the name, with parameters in brackets as above: "
        "`token_f1(normalize=squad)`; a metric of the top k retrieved contexts takes `@k` or "
        "`@all`, and its bare name is every cutoff of `k_values`. `ids.` before a retrieval "
        "measure string above (`ids.ndcg@10`, `ids.P.5,10`) is that metric over the samples' "
        "`retrieved_context_ids` against their `reference_context_ids`. [](rag.md) defines "
        "each metric.",
        "",
        "| metric | definition | parameters | plugin |",
        "|---|---|---|---|",
    ]
    shared: dict[str, list[str]] = {}  # the metrics taking each list of parameters
    tables: dict[str, list[dict[str, Any]]] = {}
    for entry in entries:
        names = ", ".join(_code(p["name"]) for p in entry["parameters"])
        spelled = ", ".join(map(_code, entry["syntaxes"]["ours"]))
        lines.append(
            f"| {spelled} | {_cell(entry['description'])} | {names} | `{entry['plugin']}` |"
        )
        if entry["parameters"]:
            same = repr(entry["parameters"])
            shared.setdefault(same, []).append(entry["name"])
            tables[same] = entry["parameters"]
    lines.append("")
    for same, metrics in shared.items():
        lines += [f"Parameters of {', '.join(map(_code, metrics))}:", ""]
        lines += _param_table(tables[same])
    for entry in entries:
        if entry.get("formula"):
            source = f" ({entry['citation']})" if entry.get("citation") else ""
            lines += [f"Definition of `{entry['name']}`: {_code(entry['formula'])}{source}.", ""]
    return lines


#: How a metric that is not averaged over queries is combined, by its ``aggregate``.
_OVER_QUERIES = {
    "sum": "summed, as trec_eval and ir_measures report it",
    "geometric": ("the geometric mean, each value floored at 0.00001 first, as trec_eval's gm_map"),
}


def _spellings(syntax: str, spelled: list[str], instead: dict[str, str]) -> str:
    """A metric's names in ``syntax``; a bare trec_eval name that means ours says what to
    write instead."""
    return ", ".join(
        f"{_code(s)} (a bare {_code(s)} is ours: write {_code(instead[s])})"
        if syntax == "trec_eval" and s in instead
        else _code(s)
        for s in spelled
    )


def _retrieval_section(entry: dict[str, Any]) -> list[str]:
    lines = [f"### {entry['name']}", "", entry["description"], ""]
    if entry["formula"]:
        lines.append(f"- **Definition:** {_code(entry['formula'])}")
    instead = entry["write_instead"]
    for syntax, spelled in entry["syntaxes"].items():
        lines.append(f"- **{_SYNTAX_TITLES[syntax]}:** {_spellings(syntax, spelled, instead)}")
    if not entry["cutoff"]:
        lines.append(
            "- **Cutoff:** none by default; `@k` cuts the ranking at k (trec_eval's `-M k`)"
        )
    if entry["aggregate"] in _OVER_QUERIES:
        lines.append(f"- **Over queries:** {_OVER_QUERIES[entry['aggregate']]}")
    if entry["citation"]:
        lines.append(f"- **Source:** {entry['citation']}")
    lines.append(f"- **Plugin:** `{entry['plugin']}`")
    lines.append("")
    if entry["parameters"]:
        lines += _param_table(entry["parameters"])
    return lines


_DIVERSITY_INTRO = """\
## Diversity metrics

The intent-aware measures of the TREC Web track, over subtopic qrels (one `qid subtopic docno
grade` line per judgement, read by `SubtopicQrels.read`:
[](formats.md#subtopic-qrels-diversity)), named like any other measure in
`evaluate_run(run, subtopic_qrels, metrics=...)` and
`ef-eval evaluate QRELS RUN -m ...`, alone or with ordinary measures (which read each doc's
largest grade over its subtopics: [](semantics.md#diversity-and-subtopic-qrels)), and in
`compare`, saved reports and `compat.ir_measures`. `evaluate_diversity` and `ef-eval
diversity` are the same path with diversity measures only, ndeval's by default. They equal
TREC's ndeval 4.5 (and ir_measures' `pyndeval` provider) to 1e-9;
tests/metrics/test_diversity_pyndeval.py holds them equal. A query has `A`
subtopics with a relevant doc; the doc at rank `i` (0-based) gains `g_i = sum((1 - alpha) **
c_j)` over the subtopics `j` it is relevant to, `c_j` the docs above it relevant to `j`. The
ideal ranking is ndeval's greedy one: the judged doc of largest gain next, ties to the larger
doc id. A bare name with a cutoff is every cutoff of `k_values` (ndeval's 5, 10, 20). A query
with no relevant judgement scores 0.0 and counts in the mean, as in ndeval.

Where ndeval differs: its ERR-IA@1 and alpha-DCG@1 are not normalised (its loop starts at
rank 2; here every cutoff is, so ndeval's is ours times `A`), and its nNRBP of a query with
no relevant judgement is 0/0 = NaN (here 0.0). pyndeval breaks ties in scores by doc id
ascending; here, as in `ndeval -traditional` and trec_eval, by doc id descending.

```pycon
>>> from ef.evaluation import evaluate_run
>>> qrels = {"q1": {"1": {"a": 1, "b": 1}, "2": {"b": 1, "c": 1}}}
>>> run = {"q1": {"c": 3.0, "a": 2.0, "b": 1.0}}
>>> report = evaluate_run(run, qrels, metrics=["alpha_nDCG@2", "ERR-IA@2", "StRecall@2"])
>>> report.metrics
{'alpha_ndcg@2': 0.7043638493171503, 'err_ia@2': 0.6, 'subtopic_recall@2': 1.0}

```

| metric | ours | ir_measures | ndeval | parameters | definition |
|---|---|---|---|---|---|
"""

#: The parameters of the diversity measures (each takes ``rel`` and those it names).
_DIVERSITY_PARAMS: list[dict[str, Any]] = [
    {
        "name": "alpha",
        "type": "float",
        "default": "0.5",
        "description": "redundancy intolerance in [0, 1]: each further doc relevant to a "
        "subtopic gains 1 - alpha times what the one before it did (ndeval's -alpha)",
    },
    {
        "name": "beta",
        "type": "float",
        "default": "0.5",
        "description": "NRBP's patience in [0, 1] (ndeval's -beta); not 1 with alpha 0",
    },
    {
        "name": "rel",
        "type": "float",
        "default": None,
        "description": "the lowest grade that counts as relevant to a subtopic; "
        "unset: any grade > 0",
    },
]

_DIVERSITY_SOURCE = (
    "- **Source:** Clarke et al., SIGIR 2008 (alpha-nDCG); Clarke, Kolla and Vechtomova, "
    "ICTIR 2009 (NRBP); Agrawal et al., WSDM 2009 (intent-aware measures); Chapelle et al., "
    "CIKM 2009 (ERR); as ndeval 4.5 (TREC Web track) computes them\n"
    "- **Module:** `ef.evaluation.metrics.retrieval.diversity` (one function per measure)\n"
)


def _diversity_section() -> list[str]:
    lines = [_DIVERSITY_INTRO.rstrip("\n")]
    for measure in DIVERSITY_MEASURES.values():
        at = "@k" if measure.cutoff else ""
        ours = _code(measure.name + at)
        theirs = ", ".join(_code(n + at) for n in measure.ir_measures)
        params = ", ".join(map(_code, (*measure.params, "rel")))
        lines.append(
            f"| {measure.name} | {ours} | {theirs} | {_code(measure.ndeval + at)} | {params} "
            f"| {_code(_cell(measure.formula))} |"
        )
    return [*lines, "", *_param_table(_DIVERSITY_PARAMS), _DIVERSITY_SOURCE]


def catalogue_markdown(registry: Registry) -> str:
    """The catalogue page (Markdown, for Sphinx with MyST) of ``registry``'s metrics."""
    entries = catalogue_entries(registry)
    lines = [_INTRO, "## Retrieval metrics", ""]
    for entry in entries:
        if entry["kind"] == "retrieval":
            lines += _retrieval_section(entry)
    lines += _diversity_section()
    lines += _rag_section([entry for entry in entries if entry["kind"] == "rag"])
    return "\n".join(lines).rstrip() + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m ef.evaluation._presentation.catalogue [PATH]``: write the built-ins' page
    (stdout if no PATH)."""
    from .._plugin_engine.registry import Registry

    args = list(sys.argv[1:] if argv is None else argv)
    text = catalogue_markdown(Registry.load(autoload=False))
    if args:
        Path(args[0]).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":  # pragma: no cover - run by hand to regenerate the page
    raise SystemExit(main())
