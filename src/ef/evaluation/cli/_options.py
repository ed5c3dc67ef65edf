"""Options and parsing shared by the ef-eval commands."""

from __future__ import annotations

import contextlib
import sys
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, get_args

import click

from .._runs.order import SINGLE_ORDER_POLICIES, TIE_POLICIES
from ..errors import InputWarning
from ..types import CompareAveraging
from ._spelling import cli_message

if TYPE_CHECKING:
    from .._store import Record
    from ..types import Qrels

__all__ = [
    "MEASURES_HELP",
    "averaging_option",
    "batch_size_option",
    "check_measures",
    "compared_cutoffs_option",
    "cutoffs_option",
    "dataset_argument",
    "dataset_format_option",
    "dataset_parts",
    "echo_warnings",
    "file_option",
    "input_warnings",
    "limit_option",
    "measures_option",
    "per_query_option",
    "progress_option",
    "qrels_format_option",
    "record_options",
    "recorded_note",
    "run_format_option",
    "show_progress",
    "significance_options",
    "source_argument",
    "source_callback",
    "split_measures",
    "split_option",
    "stacked",
    "store_option",
    "warnings_shown",
    "workers_option",
]

MEASURES_HELP = (
    "A measure: name@k (ndcg@10), a name at every --k, name@all (the whole ranking), "
    "with parameters (precision(rel=2)@5), or in ir_measures' (nDCG@10) or trec_eval's "
    "(ndcg_cut.10, P.5,10) syntax; repeat or comma-separate. ef-eval metrics lists them. "
    "Default: ndcg, recall, precision, mrr and map at 1, 5, 10 and 100."
)

measures_option = click.option("-m", "--metric", "metrics", multiple=True, help=MEASURES_HELP)

cutoffs_option = click.option(
    "-k",
    "--k",
    "k_values",
    multiple=True,
    type=click.IntRange(min=1, max=2**63 - 1),  # a ranking's depth is an int64
    help="A cutoff for metrics named without one (repeatable). Default: 1, 5, 10, 100.",
)

#: ``-k`` of the commands that compare systems, by default at 10 alone (``compare``,
#: ``experiment``).
compared_cutoffs_option = click.option(
    "-k",
    "--k",
    "k_values",
    multiple=True,
    type=click.IntRange(min=1),
    help="A cutoff for metrics named without one (repeatable). Default: 10.",
)

qrels_format_option = click.option(
    "--qrels-format",
    default=None,
    help="The QRELS format; default: detected. 'subtopics': diversity qrels (qid subtopic "
    "docno grade), detected only when a diversity measure is asked for.",
)
run_format_option = click.option(
    "--run-format", default=None, help="The RUN format; default: detected."
)

per_query_option = click.option(
    "-q", "--per-query", is_flag=True, help="Also show every query's values."
)

ties_option = click.option(
    "--ties",
    "tie_policy",
    type=click.Choice(list(TIE_POLICIES)),
    default=None,
    help="How docs with equal scores are ordered: trec_eval (docno descending; the default), "
    "docno_asc, input_order (file order), or expected (each metric averaged over every order "
    "of the tied docs).",
)


def single_order_ties_option(help: str) -> Callable[[Any], Any]:
    """``--ties`` for a command that ranks each run once (``fuse``, ``pool``): every tie
    policy but ``expected``, trec_eval's by default; ``help`` says what the order decides."""
    choices = click.Choice(SINGLE_ORDER_POLICIES)
    return click.option(
        "--ties", "tie_policy", type=choices, default="trec_eval", show_default=True, help=help
    )


def file_option(*decls: str, help: str, required: bool = False) -> Callable[[Any], Any]:
    """A click option that names one file, as a Path (a directory is refused): the one
    declaration of every command's file options (--run, --answers, -o ...).

    >>> @click.command()
    ... @file_option("--out", help="Where.")
    ... def command(out): click.echo(repr(out))
    >>> from click.testing import CliRunner
    >>> print(CliRunner().invoke(command, ["--out", "a.trec"]).output, end="")
    PosixPath('a.trec')
    """
    kind = click.Path(path_type=Path, dir_okay=False)
    return click.option(*decls, required=required, type=kind, default=None, help=help)


def stacked(*options: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """One decorator of several click options, listed (and shown by ``--help``) in the
    order given, as if each were written above the command in turn.

    >>> @click.command()
    ... @stacked(click.option("--a"), click.option("--b"))
    ... def command(a, b): pass
    >>> [param.name for param in command.params]
    ['a', 'b']
    """

    def apply(command: Any) -> Any:
        for option in reversed(options):
            command = option(command)
        return command

    return apply


def averaging_option(help: str) -> Callable[[Any], Any]:
    """``--averaging`` of the commands that pair queries (``compare``, ``diversity``): a
    judged query a run lacks scores 0 (``qrels``), or only the queries answered count."""
    choices = click.Choice(get_args(CompareAveraging))
    return click.option("--averaging", type=choices, default="qrels", show_default=True, help=help)


def split_option(
    help: str = "The qrels split to run. Default: test, dev, train.",
) -> Callable[[Any], Any]:
    """``--split``: which of a dataset's qrels splits a command reads."""
    return click.option("--split", default=None, help=help)


dataset_format_option = click.option(
    "--format", "dataset_format", default=None, help="DATASET's format; default: detected."
)

limit_option = click.option(
    "--limit",
    type=click.IntRange(min=1),
    default=None,
    help="Results to retrieve per query. Default: the largest cutoff of the metrics.",
)

workers_option = click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="Run the batches on this many threads. Default: one after another.",
)


def batch_size_option(default: int, help: str) -> Callable[[Any], Any]:
    """``--batch-size``: queries per retriever call, ``default`` by default."""
    kind = click.IntRange(min=1)
    return click.option("--batch-size", type=kind, default=default, show_default=True, help=help)


def significance_options(
    *,
    test_help: str = "The test; tukey: Tukey's HSD over every system, family-wise "
    "(no --correction).",
    correction_help: str = "Multiple-comparison correction over every pair and metric "
    "(bh: Benjamini-Hochberg).",
    seed: bool = True,
) -> Callable[[Any], Any]:
    """``--test``, ``--correction``, ``--alpha``, ``--n-resamples`` and (with ``seed``)
    ``--seed``: the significance tests of ``compare``, ``experiment`` and ``site``, with
    :class:`~ef.evaluation._engine.significance.Significance`'s names and defaults. The
    command gets them as one keyword, ``significance`` (``--correction none`` is None),
    checked as ``compare`` checks them before the command reads anything.

    >>> @click.command()
    ... @significance_options()
    ... def command(significance): print(significance.test, significance.correction)
    >>> command(["--test", "wilcoxon", "--correction", "holm"], standalone_mode=False)
    wilcoxon holm
    """
    import functools

    import attrs

    from .._engine.significance import CORRECTIONS, TESTS, Significance

    default = attrs.fields(Significance)
    options = [
        click.option(
            "-t",
            "--test",
            type=click.Choice(TESTS),
            default=default.test.default,
            show_default=True,
            help=test_help,
        ),
        click.option(
            "-c",
            "--correction",
            type=click.Choice(("none", *CORRECTIONS)),
            default="none",
            show_default=True,
            help=correction_help,
        ),
        click.option(
            "--alpha",
            type=click.FloatRange(0, 1, min_open=True, max_open=True),
            default=default.alpha.default,
            show_default=True,
        ),
        click.option(
            "--n-resamples",
            type=click.IntRange(min=1),
            default=default.n_resamples.default,
            show_default=True,
        ),
    ]
    if seed:
        kind = click.IntRange(min=0)
        seed_help = "Seed of the resampling."
        options.append(click.option("--seed", type=kind, default=None, help=seed_help))
    names = [field.name for field in attrs.fields(Significance)]

    def collapse(command: Callable[..., Any]) -> Any:
        @functools.wraps(command)
        def with_significance(**given: Any) -> Any:
            chosen = {name: given.pop(name) for name in names if name in given}
            if chosen["correction"] == "none":
                chosen["correction"] = None
            return command(significance=Significance(**chosen), **given)

        return stacked(*options)(with_significance)

    return collapse


progress_option = click.option(
    "--no-progress",
    is_flag=True,
    help="No progress bar. Without it, long work shows one on stderr when stderr is a "
    "terminal (never on a pipe or in a file).",
)


def stderr_is_terminal() -> bool:
    """Whether stderr is a terminal (the tests replace this to pretend it is)."""
    return sys.stderr.isatty()


def show_progress(no_progress: bool) -> bool:
    """Whether a command draws progress bars: on a terminal, unless ``--no-progress``. A pipe
    or a log file gets none, and stdout never does."""
    return not no_progress and stderr_is_terminal()


def dataset_argument(value: str, inside: str = "") -> Path:
    """The path an argument names: ``demo`` is the demo dataset shipped with ef-evaluation
    (``inside`` it: one of its files, e.g. its RAG samples), unless a file or folder called
    ``demo`` is in the current directory. The Python API reads ``evaluate_run(run, "demo")``
    as that path, and a path the user typed is what they most likely meant: it wins, with a
    note on stderr that the name also means the shipped demo, and where that is.

    Arguments that take it are plain strings: a Path would turn ``./demo`` into ``demo``.
    """
    from .._formats.demo import DEMO_NAME, demo_path  # importlib.resources: not for ef-trec-eval

    if value != DEMO_NAME:
        return Path(value)
    shipped = demo_path() / inside if inside else demo_path()
    local = Path(value)
    if not local.exists():
        return shipped
    kind = "folder" if local.is_dir() else "file"
    click.echo(
        f"note: demo is the {kind} ./demo here, read as given; the name also means the demo "
        f"dataset shipped with ef-evaluation: give its path for that ({shipped})",
        err=True,
    )
    return local


def source_argument(value: str, inside: str = "") -> Path | str:
    """:func:`dataset_argument`, but an ir_datasets id (``irds:<id>``) or an fsspec URL is
    kept a str, for the API to read: a Path would fold a URL's ``//``, and an id is no path.
    """
    from .._formats.sources import is_irds, is_url

    return value if is_irds(value) or is_url(value) else dataset_argument(value, inside)


def dataset_parts(
    source: Path | str, format: str | None, split: str | None
) -> tuple[Mapping[str, str], Mapping[str, str], Qrels | str]:
    """``(corpus, queries, qrels)`` of the DATASET argument as :func:`source_argument`
    gives it, as :func:`~ef.evaluation.read_dataset` reads them; of an ``irds:<id>`` the
    qrels are the id, for the evaluation to read and apply the dataset's relevance level to
    its measures."""
    from .._formats.files import read_dataset
    from .._formats.irds import read_irds_dataset
    from .._formats.sources import is_irds

    if is_irds(source):
        corpus, queries, _ = read_irds_dataset(source, note=False)  # the evaluation says it
        return corpus, queries, source
    return read_dataset(source, format, split=split)


def source_callback(
    ctx: click.Context, param: click.Parameter, value: str | tuple[str, ...] | None
) -> Path | str | tuple[Path | str, ...] | None:
    """A click callback: each value of an argument (or option) of files as
    :func:`source_argument` reads it (the type is a plain ``click.Path()``: strings)."""
    if value is None:
        return None
    if isinstance(value, tuple):
        return tuple(source_argument(v) for v in value)
    return source_argument(value)


@contextlib.contextmanager
def input_warnings() -> Iterator[list[warnings.WarningMessage]]:
    """Record the warnings raised inside, each :class:`~ef.evaluation.InputWarning` every
    time (not once per place), for :func:`echo_warnings` to show when the command is done."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", InputWarning)
        yield caught


@contextlib.contextmanager
def warnings_shown(command: Callable[[], click.Command | None]) -> Iterator[None]:
    """:func:`input_warnings` around a command, shown by :func:`echo_warnings` when it ends,
    by an error too, in the words of ``command()`` (known once it has started)."""
    caught: list[warnings.WarningMessage] = []
    try:
        with input_warnings() as caught:
            yield
    finally:
        # Shown once the recording has stopped: a warning that is not ours is issued again,
        # which inside it would be appended to the list being read, without end.
        echo_warnings(caught, command())


def echo_warnings(
    caught: Sequence[warnings.WarningMessage], command: click.Command | None = None
) -> None:
    """Ours a line each on stderr (stdout stays the command's output alone), in the words of
    ``command`` (by default the current one); any other shown as Python would have shown
    it."""
    if command is None:
        context = click.get_current_context(silent=True)
        command = context.command if context else None
    for notice in caught:
        if issubclass(notice.category, InputWarning):
            message = cli_message(notice.message, command)
            click.echo(f"warning: {message}", err=True)
        else:
            warnings.warn_explicit(notice.message, notice.category, notice.filename, notice.lineno)


def split_measures(values: Sequence[str]) -> tuple[str, ...]:
    """``-m a -m b,c`` -> ``(a, b, c)``.

    >>> split_measures(["ndcg@10,P.5,10", "nDCG(gains={1:3,2:9})@10"])
    ('ndcg@10', 'P.5,10', 'nDCG(gains={1:3,2:9})@10')

    A comma inside brackets does not split (``nDCG(gains={1:3,2:9})@10``), nor one before a
    digit, which continues trec_eval's cutoffs and gains (``P.5,10``, ``ndcg.1=3,2=9``).
    """
    parts = [part for value in values for part in _outside_brackets(value)]
    joined: list[str] = []
    for part in (p.strip() for p in parts):
        if part[:1].isdigit() and joined and "." in joined[-1] and "(" not in joined[-1]:
            joined[-1] += "," + part
        elif part:
            joined.append(part)
    return tuple(joined)


def _outside_brackets(value: str) -> list[str]:
    """``value`` split at each comma outside brackets."""
    parts: list[str] = []
    depth = 0
    current = ""
    for char in value:
        if char in "({[":
            depth += 1
        elif char in ")}]":
            depth -= 1
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    return parts


def check_measures(chosen: Sequence[str], k_values: Sequence[int], option: str = "-m") -> None:
    """Resolve each measure the user named alone, so that an error names the option and the
    measure: ``-m rbp(p=1.5): rbp's parameter 'p' must lie strictly between 0 and 1, ...``.

    >>> check_measures(["ndcg@10", "rbp(p=1.5)"], (10,))
    Traceback (most recent call last):
        ...
    ValueError: -m rbp(p=1.5): rbp's parameter 'p' must lie strictly between 0 and 1, got 1.5
    """
    from .._engine.measures import check_k_values
    from .._engine.scoring import resolve_measures
    from .._engine.syntax import is_metric_name
    from .._plugin_engine.registry import get_registry

    check_k_values(k_values)
    registry = get_registry()
    for spec in chosen:
        try:
            if not is_metric_name(spec, registry) and _diversity(spec, k_values):
                continue  # scored against subtopic qrels
            resolve_measures([spec], k_values, registry)
        except ValueError as exc:  # UnknownNameError too: the message says which
            problem = " ".join(str(exc).split()).removeprefix(f"{spec!r}: ")
            raise ValueError(f"{option} {spec}: {problem}") from exc


def _diversity(spec: str, k_values: Sequence[int]) -> bool:
    """Whether ``spec`` is a diversity measure, read as one (its errors raised): the
    diversity measures' module loads only for a string that names no metric."""
    from .._engine._diversity import is_diversity_spec, parse_diversity_measures

    if not is_diversity_spec(spec):
        return False
    parse_diversity_measures([spec], k_values)
    return True


STORE_HELP = (
    "The store of evaluations: a SQLite file or sqlite:///path, or postgresql://user@host/db. "
    "Default: $EF_EVALUATION_STORE, else the default SQLite file (see docs/experiments.md)."
)

store_option = click.option("--store", default=None, metavar="URL", help=STORE_HELP)


def record_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--record``, ``--system``, ``--dataset``, ``--tag`` and ``--store``."""
    for option in reversed(
        (
            click.option(
                "--record",
                is_flag=True,
                help="Record the report in the store of evaluations (--store), as --system "
                "on --dataset.",
            ),
            click.option(
                "--system",
                default=None,
                help="The system's name in the store. Default: the RUN file's name "
                "(runs/bm25.trec is bm25).",
            ),
            click.option(
                "--dataset",
                default=None,
                help="The dataset's name in the store. Default: the QRELS's (a BEIR "
                "folder's name, an irds: id, or the qrels file's name).",
            ),
            click.option(
                "--tag",
                "tags",
                multiple=True,
                help="A free label kept with the record (repeatable).",
            ),
            store_option,
        )
    ):
        command = option(command)
    return command


def recorded_note(record: Record, store: str | None) -> None:
    """The stderr line that says what was recorded, and where."""
    from .._store.location import shown, store_url

    click.echo(
        f"note: recorded {record.system} on {record.dataset} (record {record.id}) in "
        f"{shown(store_url(store))}",
        err=True,
    )
