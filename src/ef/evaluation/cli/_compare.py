"""``ef-eval compare``: paired significance tests between runs, or between RAG reports."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeGuard

import attrs
import click

from ..errors import DatasetFormatError
from ..types import CompareAveraging
from ._options import (
    averaging_option,
    check_measures,
    compared_cutoffs_option,
    echo_warnings,
    input_warnings,
    per_query_option,
    progress_option,
    qrels_format_option,
    run_format_option,
    show_progress,
    significance_options,
    source_argument,
    split_measures,
    ties_option,
)
from ._render import emit_comparison, output_option

if TYPE_CHECKING:
    from .._engine.significance import Significance
    from .._evaluate.compare import ComparisonReport
    from .._reports import RagEvalReport
    from ..types import TiePolicy

__all__ = ["compare_command"]


def _named_paths(arguments: Sequence[str]) -> dict[str, Path]:
    """``NAME=PATH`` or ``PATH`` (named by its file name) for each argument."""
    named = _named_sources(arguments)
    return {name: Path(source) for name, source in named.items()}


def _named_sources(arguments: Sequence[str]) -> dict[str, Path | str]:
    """:func:`_named_paths` of runs, where an ``irds:<id>`` (the dataset's scoreddocs) or a
    URL stays a str, read by the API."""
    from .._evaluate.compare import system_name

    named: dict[str, Path | str] = {}
    for index, argument in enumerate(arguments):
        name, equals, path = argument.partition("=")
        if equals and name and not Path(argument).exists():
            chosen, source = name, source_argument(path)
        else:
            chosen, source = system_name(argument, index), source_argument(argument)
        if isinstance(source, Path) and not source.exists():  # an irds: id or a URL is read
            raise FileNotFoundError(f"{source}: no such file")
        if chosen in named:
            raise ValueError(f"two systems are called {chosen!r}; name them with NAME=PATH")
        named[chosen] = source
    return named


def _rag_report(path: Path, metrics: tuple[str, ...], k_values: tuple[int, ...]) -> RagEvalReport:
    """A RAG report saved as JSON (``ef-eval rag -s -o json``), or a samples file to score
    (a bare ``has_answer`` at the cutoffs ``k_values``)."""
    from .._evaluate.rag import evaluate_rag
    from .._formats._io import load_json
    from .._reports import RagEvalReport

    if path.suffix.lower() != ".json":
        # By path, so that what is wrong in the file is reported with its name.
        if not metrics:
            return evaluate_rag(path)
        return evaluate_rag(path, metrics=metrics, k_values=k_values)
    try:
        data: Any = load_json(path.read_text(encoding="utf-8-sig"), path)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DatasetFormatError(f"{path}: not a JSON RAG report: {exc}") from None
    if not isinstance(data, dict) or not {"metrics", "coverage", "n_samples"} <= set(data):
        raise DatasetFormatError(
            f"{path}: not a RAG report: expected the JSON of ef-eval rag -s -o json "
            "(with metrics, coverage, n_samples, per_sample and sample_ids)"
        )
    if not data.get("per_sample") or not data.get("sample_ids"):
        raise DatasetFormatError(
            f"{path}: the report has no per-sample values; save it with ef-eval rag -s -o json"
        )
    _check_saved_report(path, data)
    fields = (
        "metrics", "coverage", "n_samples", "per_sample", "sample_ids", "unanswered",
        "corpus_level", "manifest",
    )  # fmt: skip
    return RagEvalReport(**{key: data[key] for key in fields if key in data})


def _is_number(value: object) -> TypeGuard[float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _check_saved_report(path: Path, data: dict[str, Any]) -> None:
    """A saved report whose parts disagree (an edited or truncated file) is refused, naming
    what disagrees: compare would pair its values with the wrong samples, or crash."""

    def bad(what: str) -> DatasetFormatError:
        return DatasetFormatError(f"{path}: an inconsistent RAG report: {what}")

    _check_saved_samples(data, bad)
    _check_saved_metric_names(data, bad)
    ids, means, coverage = data["sample_ids"], data["metrics"], data["coverage"]
    for metric, values in data["per_sample"].items():
        _check_saved_values(metric, values, ids, bad)
        _check_saved_summary(metric, values, means[metric], coverage[metric], bad)


def _check_saved_samples(data: dict[str, Any], bad: Callable[[str], Exception]) -> None:
    """sample_ids is a list of strings, n_samples its length, per_sample a mapping."""
    ids, per_sample = data["sample_ids"], data["per_sample"]
    if not isinstance(ids, list) or not all(isinstance(s, str) for s in ids):
        raise bad("sample_ids must be a list of strings")
    if not isinstance(per_sample, dict):
        raise bad("per_sample must map each metric to its list of values")
    n_samples = data["n_samples"]
    if not isinstance(n_samples, int) or isinstance(n_samples, bool) or n_samples != len(ids):
        raise bad(f"n_samples is {n_samples!r} but sample_ids has {len(ids)} ids")


def _check_saved_metric_names(data: dict[str, Any], bad: Callable[[str], Exception]) -> None:
    """metrics, coverage and per_sample name the same metrics, but for the corpus-level
    scores, which per_sample lacks."""
    means, coverage, per_sample = data["metrics"], data["coverage"], data["per_sample"]
    if not isinstance(means, dict) or not isinstance(coverage, dict):
        raise bad("metrics and coverage must map each metric to a value")
    corpus = data.get("corpus_level", [])
    if not isinstance(corpus, list) or not all(isinstance(k, str) for k in corpus):
        raise bad("corpus_level must be a list of metric keys")
    if set(means) != set(per_sample) | set(corpus) or set(coverage) != set(means):
        raise bad(
            f"metrics ({', '.join(means)}), coverage ({', '.join(coverage)}) and per_sample "
            f"({', '.join(per_sample)}) name different metrics"
        )


def _check_saved_values(
    metric: str, values: object, ids: list[str], bad: Callable[[str], Exception]
) -> None:
    """A metric's per-sample values: one per sample, each a finite number or null."""
    if not isinstance(values, list) or len(values) != len(ids):
        count = len(values) if isinstance(values, list) else type(values).__name__
        raise bad(f"per_sample[{metric!r}] has {count} values for {len(ids)} samples")
    for sample, value in zip(ids, values, strict=True):
        if value is not None and not _is_number(value):
            raise bad(
                f"per_sample[{metric!r}] holds {value!r} for sample {sample!r}; expected "
                "a finite number or null"
            )


def _check_saved_summary(
    metric: str,
    values: list[float | None],
    saved: object,
    coverage: object,
    bad: Callable[[str], Exception],
) -> None:
    """A metric's coverage counts its scored samples and its mean is theirs."""
    scored = [v for v in values if v is not None]
    if coverage != len(scored):
        raise bad(
            f"coverage[{metric!r}] is {coverage!r} but per_sample scores {len(scored)} samples"
        )
    mean = math.fsum(scored) / len(scored) if scored else None
    if mean is None and saved is None:
        return
    if mean is None or not _is_number(saved) or not _is_close(saved, mean):
        raise bad(f"metrics[{metric!r}] is {saved!r} but the mean of per_sample is {mean!r}")


def _is_close(saved: float, mean: float) -> bool:
    return math.isclose(saved, mean, rel_tol=1e-9, abs_tol=1e-12)


def _system_name_of(choice: str, named: Mapping[str, Path | str]) -> str:
    if choice in named:
        return choice
    for name, path in named.items():
        if choice == path or Path(choice) == path:
            return str(name)
    raise ValueError(f"--baseline {choice!r} is none of the systems: {', '.join(named)}")


@click.command("compare")
@click.argument("inputs", nargs=-1, required=True)
@click.option(
    "--rag",
    is_flag=True,
    help="Compare RAG reports (JSON of ef-eval rag -s -o json) or sample files; no QRELS.",
)
@click.option(
    "-b",
    "--baseline",
    default=None,
    help="Compare every system with this one (its name or path). Default: every pair.",
)
@click.option(
    "-m",
    "--metric",
    "metrics",
    multiple=True,
    help="A metric, as name@k or a name at every --k (repeat or comma-separate). "
    "Default: ndcg@10; with --rag, every metric the reports share.",
)
@compared_cutoffs_option
@significance_options()
@averaging_option(
    "qrels: a judged query missing from a run scores 0; intersection: only queries "
    "every run answers."
)
@ties_option
@qrels_format_option
@run_format_option
@per_query_option
@progress_option
@output_option("comparison")
@click.option(
    "--plot",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Write the sorted per-query differences of the first comparison (PNG, PDF, SVG).",
)
@click.option(
    "--plot-distribution",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Write a box plot of each system's per-query values of the first metric.",
)
def compare_command(  # click passes every option by keyword
    *,
    inputs: tuple[str, ...],
    rag: bool,
    baseline: str | None,
    metrics: tuple[str, ...],
    k_values: tuple[int, ...],
    significance: Significance,
    averaging: CompareAveraging,
    tie_policy: TiePolicy | None,
    qrels_format: str | None,
    run_format: str | None,
    per_query: bool,
    no_progress: bool,
    output: str,
    plot: Path | None,
    plot_distribution: Path | None,
) -> None:
    """Compare systems with paired significance tests: QRELS RUN1 RUN2 [RUN3 ...].

    Each run is scored against QRELS as ef-eval evaluate does, queries are paired by id, and
    every pair of runs (or each run and --baseline) is tested on every metric. Name a run
    with NAME=PATH; otherwise its file name is its name. QRELS or a RUN may be an
    ir_datasets id (irds:<dataset-id>): its qrels, with its official relevance level, or its
    run. With --rag, the arguments are RAG reports saved by ef-eval rag -s -o json, or
    sample files to score, paired by sample id.
    """
    from .._evaluate.compare import compare

    chosen = split_measures(metrics)
    if rag:
        named, systems, qrels = _rag_systems(inputs, chosen, k_values or (10,))
    else:
        named, systems, qrels = _run_systems(inputs, chosen, k_values or (10,))
    with input_warnings() as caught:
        report = compare(
            systems,
            qrels,
            metrics=chosen or None,
            k_values=k_values or (10,),
            baseline=None if baseline is None else _system_name_of(baseline, named),
            **attrs.asdict(significance),
            averaging=averaging,
            tie_policy=tie_policy or "trec_eval",
            run_format=run_format,
            qrels_format=qrels_format,
            progress=show_progress(no_progress),
        )
    if rag:  # the CLI read the saved reports itself: record their files
        report = _with_files(report, named, None)
    _write_plots(report, plot, plot_distribution)
    emit_comparison(report, output, per_query)
    echo_warnings(caught)  # a line each on stderr, after the report


def _rag_systems(
    inputs: tuple[str, ...], chosen: tuple[str, ...], cutoffs: tuple[int, ...]
) -> tuple[dict[str, Path | str], dict[str, Any], Path | str | None]:
    """The named paths of RAG reports or sample files, their reports, and no qrels."""
    named = _named_paths(inputs)
    systems = {name: _rag_report(path, chosen, cutoffs) for name, path in named.items()}
    return dict(named), systems, None


def _run_systems(
    inputs: tuple[str, ...], chosen: tuple[str, ...], cutoffs: tuple[int, ...]
) -> tuple[dict[str, Path | str], dict[str, Any], Path | str | None]:
    """The named run paths after QRELS, the runs to score (their paths), and the qrels."""
    if len(inputs) < 3:
        raise ValueError("give QRELS and at least two runs: QRELS RUN1 RUN2 [RUN3 ...]")
    check_measures(chosen, cutoffs)  # an error names -m and the measure
    named = _named_sources(inputs[1:])
    qrels = source_argument(inputs[0])
    return named, dict(named), qrels


def _write_plots(
    report: ComparisonReport, differences: Path | None, distribution: Path | None
) -> None:
    """The plots asked for with --plot and --plot-distribution."""
    if differences is not None:
        report.plot_differences(path=differences)
    if distribution is not None:
        report.plot_distribution(path=distribution)


def _with_files(
    report: ComparisonReport, named: Mapping[str, Path | str], qrels: Path | str | None
) -> ComparisonReport:
    """The files the CLI read itself, in the manifest: qrels and every system's file."""
    import attrs

    from .._engine.manifest import file_entry

    manifest = dict(report.manifest)
    inputs = {"qrels": file_entry(qrels)} if qrels is not None else {}
    inputs.update({name: file_entry(path) for name, path in named.items()})
    manifest["inputs"] = inputs
    return attrs.evolve(report, manifest=manifest)
