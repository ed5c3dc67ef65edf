"""The ``ef-eval`` group: its commands, each imported only when it is the one run.

``ef-eval --help`` lists the commands from :data:`COMMANDS` without importing any of them;
``ef-eval evaluate ...`` imports ``cli/_evaluate.py`` and what scoring a run needs, never
what compare, fuse, retrieve or convert need (click's "lazy group" pattern).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Mapping
from typing import Any, NamedTuple

import click

from ..errors import EvaluationError, FormatNotDetectedError

#: Exit code for bad input or usage, as click uses for usage errors.
EXIT_BAD_INPUT = 2


class InputError(click.ClickException):
    """Bad input, reported as one line: ``Error: <file>:<line>: <what is wrong>``."""

    exit_code = EXIT_BAD_INPUT


class Listed(NamedTuple):
    """A command of ``ef-eval``: where it is, and its line in ``ef-eval --help``."""

    #: ``module:attribute``, the module under ``ef.evaluation.cli``.
    where: str
    #: The first sentence of its help, which click shortens to the terminal's width; or, if
    #: ``given``, the ``short_help`` the command states, which click prints whole.
    short_help: str
    given: bool = False


#: The commands of ``ef-eval``, by name. Each line is the one click makes from the command
#: itself (tests/test_cli_imports.py checks it), so that listing them imports none.
COMMANDS: Mapping[str, Listed] = {
    "agree": Listed("_agree:agree_command", "How far runs agree: tau, tau_AP and RBO."),
    "compare": Listed(
        "_compare:compare_command",
        "Compare systems with paired significance tests: QRELS RUN1 RUN2 [RUN3 ...].",
    ),
    "convert": Listed(
        "_convert:convert_command",
        "Convert SOURCE into TARGET in another format: a dataset directory, qrels, a run, "
        "queries or a corpus.",
    ),
    "diversity": Listed(
        "_diversity:diversity_command",
        "Score RUN with the diversity measures against the subtopic judgements in QRELS.",
    ),
    "download": Listed(
        "_download:download_command",
        "Download the BEIR dataset NAME (scifact, nfcorpus, fiqa, ...) into DIR/NAME.",
    ),
    "evaluate": Listed(
        "_evaluate:evaluate_command",
        "Score the run file RUN against the judgements in QRELS, as trec_eval does.",
    ),
    "experiment": Listed(
        "_experiment:experiment_command",
        "Run SYSTEMS on DATASET's judged queries, score and compare them, with latency.",
    ),
    "fuse": Listed(
        "_fuse:fuse_command",
        "Fuse two or more run files RUN... into one TREC run, as ranx's fuse does.",
    ),
    "fusions": Listed(
        "_fuse:fusions_command",
        "List every fusion method the loaded plugins provide: what it reads (scores or "
        "ranks), its parameters, its formula and the plugin that provides it.",
    ),
    "history": Listed(
        "_store:history_command",
        "Show METRIC (ndcg@10, nDCG@10, ...) of every recorded evaluation, oldest first.",
    ),
    "leaderboard": Listed(
        "_store:leaderboard_command",
        "Rank the systems recorded on DATASET by their last METRIC, best first.",
    ),
    "metrics": Listed(
        "_metrics:metrics_command",
        "List every metric the loaded plugins provide: its parameters, its names in our, "
        "ir_measures' and trec_eval's syntax, and the plugin that provides it.",
    ),
    "pipeline": Listed(
        "_pipeline:pipeline_command",
        "Score a stored RUN and the ANSWERS made from it against DATASET, in one report.",
    ),
    "plugins": Listed(
        "_plugins:plugins_command",
        "List the loaded plugins: distribution, version and what each provides.",
    ),
    "pool": Listed("_pool:pool_command", "Pool the top docs of RUN... into a file to judge."),
    "rag": Listed(
        "_rag:rag_command",
        "Score the RAG samples in SAMPLES (JSONL or CSV of RagSamples; demo: the demo's).",
    ),
    "retrieve": Listed(
        "_retrieve:retrieve_command",
        "Index DATASET's corpus, run its judged queries through a retriever, and score them.",
    ),
    "site": Listed(
        "_site:site_command",
        "Write the leaderboard site of the evaluations in STORE into a directory: static "
        "pages that open from disk, with no server and no network.",
    ),
    "trec_eval": Listed(
        "_trec_eval:trec_eval_command",
        "trec_eval's command line and output (also ef-trec-eval).",
        given=True,
    ),
}


#: The commands that load their scoring's modules as they run, and resume garbage collection
#: once those are loaded (cli/_gc.py); the others' collection resumes once they are imported.
_RESUME_GC_THEMSELVES = frozenset({"evaluate"})


class _Group(click.Group):
    """Imports a command when it is asked for (:data:`COMMANDS`), and turns library errors
    into one-line messages unless ``--debug`` is given."""

    def invoke(self, ctx: click.Context) -> Any:
        from ._options import warnings_shown

        try:
            # Every command's InputWarnings are warning: lines (a command may show its own
            # sooner); shown before an error, which they may explain.
            with warnings_shown(lambda: self.get_command(ctx, ctx.invoked_subcommand or "")):
                return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        # A PluginError (a plugin raised, or called sys.exit) is one of ours: exit 2, as for
        # bad input, since the fix is in what the user installed; 1 means a bug of ef's own.
        except (EvaluationError, ValueError, OSError) as exc:
            if ctx.params.get("debug"):
                raise
            from ._spelling import cli_message

            command = self.get_command(ctx, ctx.invoked_subcommand or "")
            message = _csv_hint(exc) or cli_message(exc, command)
            raise InputError(" ".join(message.split())) from exc
        except SystemExit as exc:
            # Plugins' sys.exit() is a PluginError already; this is the user's own code (a
            # retriever module): never end with its exit code and no output.
            if ctx.params.get("debug"):
                raise
            raise InputError(
                f"the command was ended by sys.exit({exc.code!r}), called by code it imported "
                "(rerun with ef-eval --debug ... for the traceback)"
            ) from exc
        except Exception as exc:
            if ctx.params.get("debug"):
                raise
            click.echo(
                f"Error: internal error: {type(exc).__name__}: {exc} "
                "(rerun with ef-eval --debug ... for the traceback, and please report it)",
                err=True,
            )
            sys.exit(1)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = self.commands.get(cmd_name)
        if command is None and cmd_name in COMMANDS:
            module, _, attribute = COMMANDS[cmd_name].where.partition(":")
            command = getattr(importlib.import_module(f"{__package__}.{module}"), attribute)
            command.params.append(_debug_option())
            self.add_command(command, cmd_name)
        if cmd_name not in _RESUME_GC_THEMSELVES:
            from ._gc import resume

            resume()  # the command's modules are loaded: collect as usual (cli/_gc.py)
        return command

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError as exc:
            # click 8.4+ suggests a close name ("Did you mean 'evaluate'?") from the commands
            # loaded so far, none yet: suggest from them all.
            no_such = getattr(click.exceptions, "NoSuchCommand", None)
            if no_such is None or not isinstance(exc, no_such):
                raise
            names = self.list_commands(ctx)
            raise no_such(exc.command_name, possibilities=names, ctx=ctx) from None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # click's listing, of stand-ins that hold each command's line: none is imported.
        stand_ins = [
            click.Command(name, short_help=listed.short_help)
            if listed.given
            else click.Command(name, help=listed.short_help)
            for name, listed in COMMANDS.items()
        ]
        click.Group(commands=stand_ins).format_commands(ctx, formatter)


def _csv_hint(exc: BaseException) -> str | None:
    """For a CSV table no format reads: how the shell turns it into a file ef-eval reads (the
    API's message shows a DataFrame instead)."""
    if not isinstance(exc, FormatNotDetectedError):
        return None
    from .._formats.undetected import cli_csv_hint

    return cli_csv_hint(exc.path, exc.capability)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--debug", is_flag=True, help="Show tracebacks instead of one-line errors.")
@click.version_option(package_name="ef-evaluation", prog_name="ef-eval")
def cli(debug: bool) -> None:
    """Evaluate retrieval and RAG quality with trec_eval-exact metrics."""


def _debug_after_the_command(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    # `ef-eval evaluate ... --debug` means what `ef-eval --debug evaluate ...` does: the group
    # reads the flag from its own parameters when an error reaches it.
    if value:
        ctx.find_root().params["debug"] = True


def _debug_option() -> click.Option:
    return click.Option(
        ["--debug"],
        is_flag=True,
        expose_value=False,
        callback=_debug_after_the_command,
        help="Show tracebacks instead of one-line errors (also before the command).",
    )
