"""``ef-eval experiment``: several systems run on one dataset, compared, timed and cached."""

from __future__ import annotations

import ast
import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs
import click

from ._options import (
    batch_size_option,
    check_measures,
    compared_cutoffs_option,
    dataset_format_option,
    dataset_parts,
    echo_warnings,
    input_warnings,
    limit_option,
    per_query_option,
    progress_option,
    show_progress,
    significance_options,
    source_argument,
    split_measures,
    split_option,
    store_option,
    workers_option,
)
from ._render import emit_comparison, output_option

if TYPE_CHECKING:
    from .._engine.significance import Significance
    from .._evaluate._experiment import System

__all__ = ["experiment_command", "parse_system"]

_NAME = re.compile(r"^[\w.\-]+$")
_CALL = re.compile(r"^(?P<spec>[^()]+)\((?P<options>.*)\)$", re.DOTALL)


def parse_system(argument: str, index: int) -> tuple[str, str, dict[str, Any]]:
    """``[NAME=]SPEC`` as ``(name, spec, options)``: SPEC is a run file, or a retriever
    (``bm25``, ``dense``, ``module:object``) with options in brackets,
    ``bm25(k1=1.2, b=0.75)``. A system is named by NAME, else by its run file's name or
    its SPEC as typed.

    >>> parse_system("lucene=bm25(k1=1.2, b=0.75)", 0)
    ('lucene', 'bm25', {'k1': 1.2, 'b': 0.75})
    >>> parse_system("bm25(method='atire')", 1)
    ("bm25(method='atire')", 'bm25', {'method': 'atire'})
    """
    from .._evaluate.compare import system_name

    name, equals, rest = argument.partition("=")
    if equals and _NAME.match(name) and not Path(argument).exists():
        spec = rest
    else:
        name, spec = "", argument
    if Path(spec).is_file():
        return name or system_name(spec, index), spec, {}
    call = _CALL.match(spec.strip())
    if call is None:
        return name or spec, spec, {}
    return name or spec, call["spec"].strip(), _options(argument, call["options"])


def _options(argument: str, text: str) -> dict[str, Any]:
    """``k1=1.2, b=0.75`` as keyword arguments: Python literals, or else plain words."""
    try:
        tree = ast.parse(f"f({text})", mode="eval")
    except SyntaxError:
        tree = None
    if not isinstance(tree, ast.Expression) or not isinstance(tree.body, ast.Call):
        raise ValueError(f"system {argument!r}: expected options as key=value, ...")
    if tree.body.args:
        raise ValueError(f"system {argument!r}: options are key=value, not positional")
    options: dict[str, Any] = {}
    for keyword in tree.body.keywords:
        if keyword.arg is None:
            raise ValueError(f"system {argument!r}: options are key=value, not **")
        try:
            options[keyword.arg] = ast.literal_eval(keyword.value)
        except ValueError:
            options[keyword.arg] = ast.unparse(keyword.value)  # a bare word: a str
    return options


def _corpus_digest(corpus: Any) -> str:
    """The sha256 of a corpus's ids and texts, in order: part of the version of a retriever
    built from it."""
    import hashlib
    import json

    digest = hashlib.sha256()
    for doc_id, text in corpus.items():
        digest.update(json.dumps([doc_id, text], ensure_ascii=False).encode())
        digest.update(b"\n")
    return digest.hexdigest()


def _systems(arguments: Sequence[str], corpus: Any) -> list[System]:
    """Each SYSTEM argument as a System: a stored run, or a retriever built over ``corpus``
    only when its run is not in the cache."""
    from functools import partial

    from .._evaluate._experiment import System
    from .._retrievers._load import retriever_factory, retriever_version

    systems: list[System] = []
    digest: Callable[[], str] = _Once(partial(_corpus_digest, corpus))
    for index, argument in enumerate(arguments):
        name, spec, options = parse_system(argument, index)
        if Path(spec).is_file():
            systems.append(System(name, run=Path(spec)))
            continue
        if ":" in spec and os.getcwd() not in sys.path:
            sys.path.insert(0, os.getcwd())  # module:object from here, as python -m
        factory = retriever_factory(spec)  # a bad name fails before anything is read
        declared, built = retriever_version(spec)
        version = None
        if declared is not None:
            version = f"{spec}({_shown(options)}); {declared}"
            if built:
                version += f"; corpus sha256 {digest()}"
        systems.append(System(name, build=partial(factory, corpus, **options), version=version))
    return systems


def _shown(options: dict[str, Any]) -> str:
    return ", ".join(f"{key}={value!r}" for key, value in sorted(options.items()))


class _Once:
    """A function's value, computed on the first call only."""

    def __init__(self, function: Callable[[], str]) -> None:
        self._function = function
        self._value: str | None = None

    def __call__(self) -> str:
        if self._value is None:
            self._value = self._function()
        return self._value


@click.command("experiment")
@click.argument("dataset")
@click.argument("systems", nargs=-1, required=True)
@click.option(
    "-b",
    "--baseline",
    default=None,
    help="Compare every system with this one (its name). Default: every pair.",
)
@click.option(
    "-m",
    "--metric",
    "metrics",
    multiple=True,
    help="A metric, as name@k or a name at every --k (repeat or comma-separate). Default: ndcg@10.",
)
@compared_cutoffs_option
@significance_options()
@split_option()
@dataset_format_option
@limit_option
@batch_size_option(1, "Queries per retriever call; 1 times each query alone.")
@workers_option
@click.option(
    "--cache",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="Keep each retriever's run in this folder, and read it back while the system, its "
    "version, the depth and the queries are unchanged.",
)
@click.option("--clear-cache", is_flag=True, help="Empty the --cache folder of its runs first.")
@click.option(
    "--record",
    is_flag=True,
    help="Record each retriever's report in the store of evaluations (--store), under its "
    "NAME on the dataset (DATASET's folder name).",
)
@click.option("--tag", "tags", multiple=True, help="A free tag on each record (repeat for more).")
@store_option
@per_query_option
@progress_option
@output_option("comparison")
def experiment_command(  # click passes every option by keyword
    *,
    dataset: str,
    systems: tuple[str, ...],
    baseline: str | None,
    metrics: tuple[str, ...],
    k_values: tuple[int, ...],
    significance: Significance,
    split: str | None,
    dataset_format: str | None,
    limit: int | None,
    batch_size: int,
    workers: int | None,
    cache: Path | None,
    clear_cache: bool,
    record: bool,
    tags: tuple[str, ...],
    store: str | None,
    per_query: bool,
    no_progress: bool,
    output: str,
) -> None:
    """Run SYSTEMS on DATASET's judged queries, score and compare them, with latency.

    DATASET is demo (the demo dataset shipped with ef-evaluation), a dataset directory
    (BEIR, TREC or MS MARCO) or an ir_datasets id (irds:<dataset-id>). Each SYSTEM is
    [NAME=]SPEC: a run file, or a retriever built over the corpus, bm25, dense or
    module:object, with options in brackets: "bm25(k1=1.2, b=0.75)". Each retriever is
    timed around its call only. With --cache, a retriever whose version is known (the
    built-ins; an imported object's version attribute) is run once and read back after.
    """
    from .._evaluate._experiment import Experiment

    if clear_cache and cache is None:
        raise click.UsageError("--clear-cache needs --cache DIR")
    chosen = split_measures(metrics) or ("ndcg@10",)
    cutoffs = k_values or (10,)
    check_measures(chosen, cutoffs)  # an error names -m and the measure
    # The qrels of an irds: id are the id: the experiment applies its relevance level.
    source = source_argument(dataset)
    corpus, queries, qrels = dataset_parts(source, dataset_format, split)
    experiment = Experiment(
        _systems(systems, corpus),
        qrels if isinstance(qrels, str) else (queries, qrels),
        metrics=chosen,
        k_values=cutoffs,
        baseline=baseline,
        **attrs.asdict(significance),
        limit=limit,
        batch_size=batch_size,
        executor=workers,
        cache=cache,
        record=record,
        store=store,
        dataset_name=_dataset_name(source, split) if record else None,
        tags=tags,
    )
    if clear_cache:
        removed = experiment.clear_cache()
        click.echo(
            f"cleared {removed} cached run{'s' if removed != 1 else ''} from {cache}", err=True
        )
    with input_warnings() as caught:
        report = experiment.run(progress=show_progress(no_progress))
    emit_comparison(report, output, per_query)
    echo_warnings(caught)  # a line each on stderr, after the report
    if record:
        from .._store.location import shown, store_url

        click.echo(
            f"note: recorded {len(report.systems)} systems on {experiment.dataset_name} in "
            f"{shown(store_url(store))}",
            err=True,
        )


def _dataset_name(source: object, split: str | None) -> str:
    """The dataset's name in the store: its folder's name (or irds: id), with the split when
    one is named."""
    from .._store.recording import dataset_name

    name = dataset_name(source) or "dataset"
    return f"{name}/{split}" if split else name
