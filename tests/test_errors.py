"""Every exception of ef.evaluation.errors pickles: one raised on a process pool or a Dask
worker travels back to the caller as itself, its message and attributes kept."""

from __future__ import annotations

import concurrent.futures as cf
import inspect
import multiprocessing
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from ef.evaluation import errors
from ef.evaluation._engine.results import check_answer

#: Each class of errors.py, built as ef raises it (the messages are real ones, shortened).
RAISED_AS: dict[str, tuple[tuple[object, ...], dict[str, object]]] = {
    "EvaluationError": (("something failed",), {}),
    "PluginError": (("plugin 'x' registers no metric",), {}),
    "PluginLoadError": (("plugin 'x' (entry point 'x:y') failed to import: KeyError",), {}),
    "DuplicateNameError": (("metric 'ndcg' is provided by both 'a' and 'b'",), {}),
    "UnknownNameError": (("unknown metric 'ndgc'; did you mean 'ndcg'?",), {}),
    "FormatNotDetectedError": (
        ("cannot tell the format of runs/a.xyz; name it with ", errors.Keyword("format")),
        {"path": Path("runs/a.xyz"), "capability": "read_run"},
    ),
    "ArgumentError": (
        ("weights is given twice: as ", errors.Keyword("weights"), " and in params="),
        {},
    ),
    "ProfileRefused": (("beir", "url", "s3://b/run.trec"), {}),
    "InvalidSampleError": (("sample 3: 'answer' is not a str",), {}),
    "DatasetFormatError": (("qrels.txt line 7: expected 4 columns, got 3",), {}),
    "DownloadError": (("https://example.org/d.zip: HTTP 404 Not Found",), {}),
    "RetrieverError": (("the retriever raised on query 'q1': ValueError: boom",), {}),
    "RetrieverResultError": (("query 'q1': the retriever returned None",), {}),
    "GeneratorError": (("generate returned None for query 'q1', not a str",), {}),
    "MissingDependencyError": (('pip install "ef-evaluation[stats]"',), {}),
    "InputWarning": (("only 40% of the judged queries are in the run",), {}),
    "StoreError": (("cannot open the store: disk I/O error",), {"url": "/data/store.sqlite"}),
    "StoreSchemaError": ((), {"url": "/data/store.sqlite", "found": 3, "supported": 2}),
}

#: The message of each class built from fields alone, not from the parts of its message.
COMPOSED = {
    "ProfileRefused": "profile='beir' needs a local run file, not the URL 's3://b/run.trec': "
    "copy it locally first and give its path, or give tie_policy and averaging instead",
    "StoreSchemaError": "the store /data/store.sqlite has schema version 3, written by a newer "
    "ef-evaluation; this one reads versions up to 2: upgrade ef-evaluation (pip install -U "
    "ef-evaluation) to use it",
}

#: What an exception keeps beyond its message: the attributes of its built-in bases too.
KEPT = ("args", "name", "path", "errno", "strerror", "filename", "capability", "parts")


def defined_in_errors() -> list[str]:
    return sorted(
        name
        for name, value in vars(errors).items()
        if inspect.isclass(value) and issubclass(value, BaseException)
        if value.__module__ in ("ef.evaluation", "ef.evaluation.errors")
    )


def state(exc: BaseException) -> tuple[object, ...]:
    return (type(exc), str(exc), vars(exc), *(getattr(exc, a, None) for a in KEPT))


def build(name: str) -> BaseException:
    args, kwargs = RAISED_AS[name]
    exc: BaseException = getattr(errors, name)(*args, **kwargs)
    return exc


def test_every_class_of_errors_py_is_built_below() -> None:
    assert defined_in_errors() == sorted(RAISED_AS)
    assert sorted(errors.__all__) == sorted([*RAISED_AS, "Keyword"])  # and the parts' type


@pytest.mark.parametrize("name", sorted(RAISED_AS))
def test_an_error_pickles_with_its_message_and_attributes(name: str) -> None:
    exc = build(name)
    again = pickle.loads(pickle.dumps(exc))
    assert state(again) == state(exc)
    assert str(again) == COMPOSED.get(name, "".join(map(str, RAISED_AS[name][0])))


def test_the_errors_unpickle_in_a_fresh_interpreter() -> None:
    # Its class is found by its __module__ path alone, as a worker or the caller finds it.
    built = [build(name) for name in sorted(RAISED_AS)]
    code = (
        "import pickle, sys\n"
        "for exc in pickle.loads(sys.stdin.buffer.read()):\n"
        "    print(type(exc).__module__, type(exc).__qualname__, str(exc), sep='|')\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        input=pickle.dumps(built),
        capture_output=True,
        check=True,
    ).stdout.decode()
    assert out.splitlines() == [
        f"{type(exc).__module__}|{type(exc).__qualname__}|{exc}" for exc in built
    ]


def test_a_retriever_result_error_raised_on_a_process_pool_reaches_the_caller() -> None:
    with cf.ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        future = pool.submit(check_answer, None)
        with pytest.raises(errors.RetrieverResultError, match="returned None, not a list") as why:
            future.result()
    assert isinstance(why.value, TypeError)
    assert isinstance(why.value, errors.RetrieverError)
