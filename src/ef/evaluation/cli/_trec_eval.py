"""``ef-eval trec_eval`` (also ``ef-trec-eval``): trec_eval's command line, and its output.

The same positional arguments (``QRELS RUN``, ``-`` for a run on standard input) and flags
(``-q``, ``-m measure[.params]``, ``-c``, ``-n``, ``-l``, ``-J``, ``-M``, ``-N``, ``-R``,
``-T``, ``-Z``, ``-h``, ``-v``, and their long names), and the same bytes on stdout as
trec_eval 9.0.8, or 10.0 with ``--compat 10.0``. What differs is what goes wrong: bad input
is one line on stderr naming the file and line, and exit code 2; notes and warnings go to
stderr too.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import click

from .._version import __version__

__all__ = ["trec_eval_command", "trec_eval_main"]

#: Exit code for bad input or usage, as ``ef-eval`` uses.
EXIT_BAD_INPUT = 2

_USAGE = (
    "ef-trec-eval [-h] [-q] [-m measure[.params]]... [-c] [-n] [-l N] [-J] [-M N] [-N N] QRELS RUN"
)

_HELP = f"""\
usage: {_USAGE}
       [--compat 9.0.8|10.0] [-R qrels] [-T trec_results] [-Z zscores_file] [-v]

Evaluate the TREC run RUN ("-": standard input) against the TREC qrels QRELS and print what
trec_eval prints, byte for byte: trec_eval 9.0.8 (the version pytrec_eval wraps), or 10.0
with --compat 10.0.

 -q, --query_eval_wanted        also print each query's values, before the summary
 -m, --measure MEASURE[.PARAMS] a measure to print (repeatable): a name (P, map, ndcg_cut,
                                ...), with trec_eval's parameters after a dot (P.5,10,
                                ndcg.1=3,2=9), or a named set: official (the default),
                                all_trec, set. A measure's first parameters win.
 -c, --complete_rel_info_wanted average over every judged query; one the run lacks scores 0
 -n, --nosummary                no summary (all) rows
 -l, --level_for_rel N          the lowest grade that counts as relevant (default 1)
 -J, --Judged_docs_only         drop the docs without a judgement from every ranking first
 -M, --Max_retrieved_per_topic N  score the first N docs of each ranking only
 -N, --Number_docs_in_coll N    the collection's size, for utility
 -R, --Rel_info_format qrels    the qrels format: qrels (the only one read here)
 -T, --Results_format trec_results  the run format: trec_results (the only one read here)
 -Z, --Zscore FILE              print z-scores against FILE's "qid measure mean stddev" lines
     --compat 9.0.8|10.0        the trec_eval version to reproduce (default 9.0.8)
 -v, --version                  print the version and exit
 -h, --help                     print this help, and the description of each -m measure

Where ef differs from trec_eval: bad input is one line on stderr naming the file and line,
and exit code 2, where trec_eval would go on or stop without saying where; "#" lines are
comments in both versions, but one with the shape of a data line ("#5 0 d1 1") is data
with 9.0.8, as in trec_eval 9.0.8, and a comment with a warning naming it with 10.0; a
run may be gzipped. Notes and warnings go to stderr. See docs/migrating.md.
"""


class TrecEvalError(click.ClickException):
    """Bad input or usage, as one line: ``Error: <what is wrong>``; exit code 2."""

    exit_code = EXIT_BAD_INPUT


class _InternalError(click.ClickException):
    """A bug of ef's own, as one line; exit code 1."""

    exit_code = 1


class _Command(click.Command):
    """trec_eval's flags: a usage error is one line, and ``-h`` is trec_eval's help."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            raise TrecEvalError(f"{exc.format_message()} (ef-trec-eval -h for help)") from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except Exception as exc:  # a bug of ef's own: one line, never a traceback
            raise _InternalError(
                f"internal error: {type(exc).__name__}: {exc} (please report it)"
            ) from exc


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    version = ctx.params.get("compat") or "9.0.8"
    click.echo(f"trec_eval version {version} (ef-evaluation {__version__})", err=True)
    ctx.exit(0)


def _count(text: str | None, flag: str, notes: list[str], *, lowest: int) -> int | None:
    """A whole-number option's value: ``-M100``, ``-l 2``; one line naming the flag if not.

    Read as trec_eval's ``atol`` reads it, where that is a number: beyond C's ``LONG_MAX``
    it is ``LONG_MAX`` (``-M 99999999999999999999999`` is no limit), with a note on stderr.
    What atol would read as something else (``5x``, ``1_000``, ``abc``) is refused.
    """
    from .._engine.trec_eval import c_long

    if text is None:
        return None
    read = c_long(text)
    if read is None or text[read[1] :].strip(" \t\n\v\f\r"):
        raise TrecEvalError(f"{flag} {text!r}: expected a whole number") from None
    value = read[0]
    if value < lowest:
        raise TrecEvalError(f"{flag} {text!r}: must be {lowest} or more")
    if value != int(text):
        notes.append(f"{flag} {text}: trec_eval reads it as {value}, and so does ef")
    return value


def _help_text(measures: Sequence[str], compat: str) -> str:
    """The help, and each measure's description (its metric's formula) for ``-m``."""
    from .._engine.trec_eval import Options, columns

    text = _HELP
    if not measures:
        return text + "\n-- No measures indicated: add -m measure for its description.\n"
    lines = ["", "Requested measures:"]
    for column in columns(measures, Options(version=compat)):
        if column.measure is None:
            what = {"runid": "the run tag of the run's last line", "num_q": "queries scored"}
            lines.append(
                f"{column.name}\n    {what.get(column.kind, 'the grades of the top docs')}"
            )
            continue
        metric = column.measure.metric
        lines.append(
            f"{column.name}\n    {column.measure.key}: {metric.formula or metric.description}"
        )
    return text + "\n".join(lines) + "\n"


def _write(lines: Any) -> None:
    out = sys.stdout
    try:
        for line in lines:
            out.write(line)
        out.flush()
    except BrokenPipeError:  # `ef-trec-eval ... | head`: stop quietly, as trec_eval does
        sys.stderr.close()
        sys.exit(0)


@click.command(
    "trec_eval",
    cls=_Command,
    context_settings={"help_option_names": [], "ignore_unknown_options": False},
    add_help_option=False,
    short_help="trec_eval's command line and output (also ef-trec-eval).",
    help="trec_eval's command line and output, byte for byte (ef-eval trec_eval -h).",
)
@click.argument("files", nargs=-1, type=click.Path(allow_dash=True))
@click.option("-h", "--help", "help_wanted", is_flag=True)
@click.option(
    "-v",
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=False,
    callback=_print_version,
)
@click.option("-q", "--query_eval_wanted", "per_query", is_flag=True)
@click.option("-m", "--measure", "measures", multiple=True)
@click.option("-c", "--complete_rel_info_wanted", "complete", is_flag=True)
@click.option("-n", "--nosummary", is_flag=True)
@click.option("-l", "--level_for_rel", "level", default=None)
@click.option("-J", "--Judged_docs_only", "judged_only", is_flag=True)
@click.option("-M", "--Max_retrieved_per_topic", "max_docs", default=None)
@click.option("-N", "--Number_docs_in_coll", "num_docs", default=None)
@click.option("-R", "--Rel_info_format", "rel_format", default="qrels")
@click.option("-T", "--Results_format", "results_format", default="trec_results")
@click.option("-Z", "--Zscore", "zscores", default=None, type=click.Path(dir_okay=False))
@click.option("-D", "--Debug_level", "debug_level", default=None, hidden=True)
@click.option("-o", "--Output_old_results_format", "old_format", is_flag=True, hidden=True)
@click.option("--compat", type=click.Choice(["9.0.8", "10.0"]), default="9.0.8", is_eager=True)
def trec_eval_command(
    *,
    files: tuple[str, ...],
    help_wanted: bool,
    per_query: bool,
    measures: tuple[str, ...],
    complete: bool,
    nosummary: bool,
    level: str | None,
    judged_only: bool,
    max_docs: str | None,
    num_docs: str | None,
    rel_format: str,
    results_format: str,
    zscores: str | None,
    debug_level: str | None,
    old_format: bool,
    compat: str,
) -> None:
    """Print trec_eval's output for QRELS and RUN."""
    from .._engine.trec_eval import Options
    from ..errors import EvaluationError
    from ._options import echo_warnings, input_warnings

    try:
        if help_wanted:
            click.echo(_help_text(measures, compat), nl=False)
            return
        if debug_level is not None:
            raise TrecEvalError("-D (trec_eval's debug output) is not supported")
        if old_format:
            raise TrecEvalError("-o (trec_eval's old output format) is obsolete there and here")
        if rel_format != "qrels":
            raise TrecEvalError(
                f"-R {rel_format}: only qrels are read here (trec_eval's prefs and qrels_jg "
                "judgements are not)"
            )
        if results_format != "trec_results":
            raise TrecEvalError(f"-T {results_format}: only trec_results runs are read here")
        if len(files) != 2:
            raise TrecEvalError(
                f"expected two files, QRELS RUN, got {len(files)} (ef-trec-eval -h for help)"
            )
        notes: list[str] = []  # printed once the result is there: an error is one line
        opts = Options(
            version=compat,
            per_query=per_query,
            complete=complete,
            summary=not nosummary,
            rel_level=_count(level, "-l", notes, lowest=1) or 1,
            judged_only=judged_only,
            max_docs=_count(max_docs, "-M", notes, lowest=0),
            num_docs=_count(num_docs, "-N", notes, lowest=0) or 0,
        )
        with input_warnings() as caught:
            result = _evaluate(files[0], files[1], measures, opts, zscores)
    except (EvaluationError, ValueError, OSError) as exc:
        raise TrecEvalError(" ".join(str(exc).split())) from exc
    from .._presentation.trec_names import trec_eval_lines

    # What trec_eval reads otherwise is a note; input that is probably not what was meant
    # (an InputWarning: a run listed by rising score, a '#' line shaped as data) a warning
    # line, as ef-eval prints it. stdout stays trec_eval's bytes.
    for note in (*notes, *result.notes):
        click.echo(f"note: {note}", err=True)
    echo_warnings(caught)
    _write(trec_eval_lines(result))


def _evaluate(qrels: str, run: str, measures: Sequence[str], opts: Any, zscores: str | None) -> Any:
    from .._evaluate.trec_eval import trec_eval_files
    from .._plugin_engine.registry import get_registry
    from .._presentation.trec_names import trec_eval_lines  # noqa: F401 (loaded before resume)
    from ._gc import resume

    get_registry()  # the plugins, loaded by trec_eval_files otherwise
    resume()
    return trec_eval_files(qrels, run, measures, opts, zscores=zscores)


def trec_eval_main() -> None:
    """Run ``ef-trec-eval`` with the process arguments."""
    trec_eval_command(prog_name="ef-trec-eval")
