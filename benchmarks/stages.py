"""One ef command run in this process, its time split by the kind of work (breakdown.py runs it).

    python benchmarks/stages.py OUT.json evaluate QRELS RUN [OPTIONS...]   # ef-eval evaluate
    python benchmarks/stages.py OUT.json trec_eval [OPTIONS...] QRELS RUN  # ef-trec-eval

The command runs as its console script runs it (``from ef.evaluation.cli import main``), its
output to this process's stdout. Every second of the main thread goes to one kind, the
innermost active one (a stack, so no time is counted twice):

* **imports**: loading a module (``importlib._bootstrap._find_and_load``, wrapped), wherever
  it happens: at start or lazily inside the command;
* **plugin discovery**: the plugin manager's loading and each kind's collection (the entry
  points, the built-ins' hooks), the modules they import included;
* **reading**: the command's evaluation call (``evaluate_run``, ``trec_eval_files``), less
  what is timed inside it as another kind;
* **scoring**: the scoring functions inside it, and the report's means;
* **output**: formatting and writing what the command prints;
* **other**: the rest (click's parsing, the CLI's checks, this script's own set-up).

A function is wrapped once its module has been imported (by the command, never ahead of it:
that would time imports the command does not do). Each timed function is named in TIMED;
one that is not found once its module is loaded is listed in the JSON's ``missing``. OUT.json
gets the seconds of each kind, the exit status and the in-process total. This module
imports nothing at its top but ``sys``, ``time``, ``_thread`` and ``_frozen_importlib`` (all
loaded at interpreter start), so the command's imports are its own. Not a test: nothing
here asserts a time.
"""

from __future__ import annotations

import _thread
import sys
import time

START = time.perf_counter()

# importlib._bootstrap itself, loaded at interpreter start: importing it costs nothing.
import _frozen_importlib as _bootstrap  # noqa: E402

#: The kinds of work, in the table's order.
KINDS = ("imports", "plugin discovery", "reading", "scoring", "output", "other")

#: Module -> (attribute, kind): the functions timed as a kind. A name imported into another
#: module is that module's own copy, so it is listed there too.
TIMED: dict[str, tuple[tuple[str, str], ...]] = {
    "ef.evaluation._plugin_engine.registry": (
        ("load_plugin_manager", "plugin discovery"),
        ("Registry._kind", "plugin discovery"),
    ),
    # ef-eval evaluate imports evaluate_run when it runs (cli/_evaluate.py): the module's own.
    "ef.evaluation.cli._evaluate": (("emit_report", "output"),),
    "ef.evaluation._evaluate.run": (
        ("evaluate_run", "reading"),
        ("score_rankings", "scoring"),
        ("retrieval_report", "scoring"),
    ),
    "ef.evaluation._engine.batched": (("score_rankings", "scoring"),),
    "ef.evaluation.cli._trec_eval": (("_evaluate", "reading"), ("_write", "output")),
    "ef.evaluation._evaluate.trec_eval": (("trec_eval_result", "scoring"),),
    "ef.evaluation._presentation.trec_names": (("trec_eval_lines", "output"),),
}

_MAIN = _thread.get_ident()
_stack = ["other"]
_spent = dict.fromkeys(KINDS, 0.0)
_last = [START]
_missing: list[str] = []


def _charge() -> None:
    """Charge the time since the last charge to the innermost kind."""
    now = time.perf_counter()
    _spent[_stack[-1]] += now - _last[0]
    _last[0] = now


def _switch(kind: str | None) -> None:
    """Enter ``kind``, or leave the innermost one (``None``), the time so far charged."""
    _charge()
    if kind is None:
        _stack.pop()
    else:
        _stack.append(kind)


def _timed(func: object, kind: str) -> object:
    """``func``, its main-thread calls charged to ``kind`` (other threads' run beside)."""

    def timed(*args: object, **kwargs: object) -> object:
        if _thread.get_ident() != _MAIN:
            return func(*args, **kwargs)  # type: ignore[operator]
        _switch(kind)
        try:
            return func(*args, **kwargs)  # type: ignore[operator]
        finally:
            _switch(None)

    for name in ("__name__", "__qualname__", "__doc__", "__module__"):
        setattr(timed, name, getattr(func, name, None))
    timed.__wrapped__ = func  # type: ignore[attr-defined]
    return timed


def _patch(module: object, target: str, kind: str) -> None:
    *path, name = target.split(".")
    owner = module
    for part in path:
        owner = getattr(owner, part, None)
    found = None if owner is None else vars(owner).get(name)
    if found is None:
        _missing.append(f"{getattr(module, '__name__', '?')}:{target}")
        return
    if isinstance(found, classmethod | staticmethod):
        setattr(owner, name, type(found)(_timed(found.__func__, kind)))  # type: ignore[arg-type]
    else:
        setattr(owner, name, _timed(found, kind))


_find_and_load = _bootstrap._find_and_load  # type: ignore[attr-defined]


def _loading(name: str, import_: object) -> object:
    """``_find_and_load``, charged to imports (a plugin's own imports stay discovery's), then
    the functions of TIMED in the module just loaded wrapped."""
    if _thread.get_ident() != _MAIN or "plugin discovery" in _stack:
        module = _find_and_load(name, import_)
    else:
        _switch("imports")
        try:
            module = _find_and_load(name, import_)
        finally:
            _switch(None)
    for target, kind in TIMED.get(name, ()):
        _patch(module, target, kind)
    if name == "ef.evaluation.cli":
        module._exit_now = _ending(module._exit_now)  # type: ignore[attr-defined]
    return module


#: OUT.json's path, set by main(); emptied once the report is written.
_out: list[str] = []


def _ending(exit_now: object) -> object:
    """``cli._exit_now``, which ends ef-trec-eval's and evaluate's process without the
    interpreter's teardown (the command never returns here): the report is written first."""

    def ending(code: object) -> None:
        _finish(code if isinstance(code, int) else int(code is not None))
        exit_now(code)  # type: ignore[operator]

    return ending


def _finish(status: int) -> None:
    """The last charges, and OUT.json written (once)."""
    if not _out:
        return
    _switch("output")  # what is still buffered is written: the output's
    sys.stdout.flush()
    _switch(None)
    _bootstrap._find_and_load = _find_and_load  # type: ignore[attr-defined]
    _charge()  # the last stretch: "other"
    total = _last[0] - START  # to the last charge: the kinds add up to it
    import json

    with open(_out.pop(), "w", encoding="utf-8") as f:
        result = {"spent": _spent, "missing": _missing, "status": status, "total": total}
        json.dump(result, f)


def run(command: str, args: list[str]) -> int:
    """Run ``ef-eval evaluate ARGS`` or ``ef-trec-eval ARGS`` here, its time charged by kind;
    its exit status, once OUT.json is written (where the command ends the process itself,
    :func:`_ending` writes it)."""
    _bootstrap._find_and_load = _loading  # type: ignore[attr-defined]
    try:
        if command == "evaluate":
            sys.argv = ["ef-eval", "evaluate", *args]
            from ef.evaluation.cli import main
        elif command == "trec_eval":
            sys.argv = ["ef-trec-eval", *args]
            from ef.evaluation.cli import trec_eval_main as main
        else:
            raise SystemExit(f"stages.py: no command {command!r} (evaluate or trec_eval)")
        try:
            main()
            status = 0
        except SystemExit as exit_:
            status = exit_.code if isinstance(exit_.code, int) else int(exit_.code is not None)
    finally:
        _bootstrap._find_and_load = _find_and_load  # type: ignore[attr-defined]
    _finish(status)
    return status


def main(argv: list[str]) -> None:
    out, command, *args = argv
    _out.append(out)
    run(command, args)


if __name__ == "__main__":
    main(sys.argv[1:])
