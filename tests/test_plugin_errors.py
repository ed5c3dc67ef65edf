"""A plugin cannot end the process (DESIGN §6): whatever it raises, ``sys.exit()`` included, is
a PluginError naming the plugin, its distribution and version, the item, and the query, sample
or file; the CLI prints it as one line with exit code 2. Our own errors stay what they are."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ef.evaluation import (
    DatasetFormatError,
    PluginError,
    PluginLoadError,
    RagMetric,
    Registry,
    RetrievalMetric,
    RetrieverError,
    convert,
    evaluate_rag,
    evaluate_retrieval,
    evaluate_run,
    read_qrels,
    read_run,
    write_run,
)
from ef.evaluation.cli import cli
from ef.evaluation.testing import registry_with

QRELS = {"q1": {"d1": 1}, "q2": {"d2": 1}}
RUN = {"q1": {"d1": 1.0, "x": 0.5}, "q2": {"d2": 1.0}}
QUERIES = {"q1": "one", "q2": "two"}
DIST = r"'bad' \(ef-evaluation-bad 1\.0\)"

#: A plugin whose every item misbehaves on demand; BAD_MODE picks how (set per test).
PLUGIN = """
import math, sys
from ef.evaluation import DatasetFormat, RagMetric, RetrievalMetric, RetrieverAdapter, hookimpl

MODE = {mode!r}

def fail():
    if MODE == "exit":
        sys.exit(0)
    raise RuntimeError("boom")

def per_query(ranked, relevant, k):
    if "d2" in relevant:  # the second query
        fail()
    return 1.0

def batch(hits, k):
    fail()

def rag(sample):
    if sample.get("id") == "s2":
        fail()
    return 1.0

def read_run(path):
    fail()

def accepts(retriever):
    if getattr(retriever, "odd", False):
        fail()
    return False

@hookimpl
def ef_evaluation_metrics():
    return [
        RetrievalMetric(name="perq", func=per_query),
        RetrievalMetric(name="batchy", func=per_query, batch=batch),
        RagMetric(name="ragboom", func=rag),
    ]

@hookimpl
def ef_evaluation_formats():
    return DatasetFormat(name="badfmt", read_run=read_run, detect=lambda p: p.suffix == ".bad")

@hookimpl
def ef_evaluation_retriever_adapters():
    return RetrieverAdapter(name="badadapter", accepts=accepts, adapt=lambda r: r)
"""


def install(ef_make_dist, mode: str = "raise") -> Registry:
    ef_make_dist(
        "ef-evaluation-bad", "1.0", {"bad": "bad_mod"}, {"bad_mod": PLUGIN.format(mode=mode)}
    )
    return Registry.load()


def cli_run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), prog_name="ef-eval")
    return result.exit_code, result.stderr


# -- loading: import and hooks --------------------------------------------------------------


def test_a_plugin_calling_sys_exit_at_import_is_a_plugin_load_error(ef_make_dist) -> None:
    ef_make_dist(
        "ef-evaluation-bad", "1.0", {"bad": "bad_mod"}, {"bad_mod": "import sys\nsys.exit(0)\n"}
    )
    with pytest.raises(PluginLoadError, match=r"'bad'.*ef-evaluation-bad 1\.0.*sys\.exit\(0\)"):
        Registry.load()


def test_a_plugin_calling_sys_exit_in_a_hook_is_a_plugin_error(ef_make_dist) -> None:
    ef_make_dist(
        "ef-evaluation-bad", "1.0", {"bad": "bad_mod"},
        {"bad_mod": "import sys\nfrom ef.evaluation import hookimpl\n@hookimpl\n"
                    "def ef_evaluation_formats():\n    sys.exit(0)\n"},
    )  # fmt: skip
    with pytest.raises(
        PluginError, match=DIST + r" called sys\.exit\(0\) in ef_evaluation_formats"
    ):
        Registry.load()


def test_a_hook_that_is_a_failing_generator_is_a_plugin_error(ef_make_dist) -> None:
    ef_make_dist(
        "ef-evaluation-bad", "1.0", {"bad": "bad_mod"},
        {"bad_mod": "from ef.evaluation import hookimpl\n@hookimpl\n"
                    "def ef_evaluation_metrics():\n    yield from ()\n    raise KeyError('x')\n"},
    )  # fmt: skip
    with pytest.raises(PluginError, match=DIST + r" raised in ef_evaluation_metrics.*KeyError"):
        Registry.load()


# -- retrieval metrics ---------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["raise", "exit"])
def test_a_per_query_metric_that_fails_names_plugin_metric_and_query(ef_make_dist, mode) -> None:
    registry = install(ef_make_dist, mode)
    what = "raised RuntimeError: boom" if mode == "raise" else r"called sys\.exit\(0\)"
    with pytest.raises(
        PluginError, match=rf"metric 'perq' of plugin {DIST} {what} in its func, on query 'q2'"
    ) as info:
        evaluate_run(RUN, QRELS, metrics=("perq",), k_values=(1,), registry=registry)
    assert "EF_EVALUATION_DISABLE_PLUGINS=bad" in str(info.value)
    assert isinstance(info.value.__cause__, (RuntimeError, SystemExit))


def test_a_batch_metric_that_fails_names_plugin_and_metric(ef_make_dist) -> None:
    registry = install(ef_make_dist)
    with pytest.raises(PluginError, match=rf"metric 'batchy' of plugin {DIST} raised.*batch form"):
        evaluate_run(RUN, QRELS, metrics=("batchy",), k_values=(1,), registry=registry)


def test_a_per_query_metric_that_fails_under_expected_ties_names_the_query(ef_make_dist) -> None:
    registry = install(ef_make_dist)
    with pytest.raises(PluginError, match=r"metric 'perq' of plugin .*on query 'q2'"):
        evaluate_run(
            RUN, QRELS, metrics=("perq",), k_values=(1,), tie_policy="expected", registry=registry
        )


def test_a_metric_failing_inside_evaluate_retrieval_is_a_plugin_error(ef_make_dist) -> None:
    registry = install(ef_make_dist)

    def retriever(query, *, limit):
        return ["d1", "d2"]

    with pytest.raises(PluginError, match=r"metric 'perq' of plugin .*on query 'q2'"):
        evaluate_retrieval(retriever, QRELS, QUERIES, metrics=("perq",), registry=registry)


@pytest.mark.parametrize("value", [float("inf"), float("-inf"), float("nan")])
def test_a_retrieval_metric_value_that_is_not_finite_names_the_query(value) -> None:
    metric = RetrievalMetric(name="odd", func=lambda r, q, k: value if "d2" in q else 1.0)
    with pytest.raises(
        PluginError, match=r"'odd' returned .* for query 'q2' \(the metric of plugin 'test'\)"
    ):
        evaluate_run(RUN, QRELS, metrics=("odd",), k_values=(1,), registry=registry_with(metric))


def test_a_keyboard_interrupt_in_a_metric_is_let_through() -> None:
    def stop(ranked, relevant, k):
        raise KeyboardInterrupt

    registry = registry_with(RetrievalMetric(name="stop", func=stop))
    with pytest.raises(KeyboardInterrupt):
        evaluate_run(RUN, QRELS, metrics=("stop",), k_values=(1,), registry=registry)


# -- formats -------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["raise", "exit"])
def test_a_plugin_format_reader_that_fails_names_plugin_format_and_file(
    ef_make_dist, tmp_path, mode
) -> None:
    registry = install(ef_make_dist, mode)
    path = tmp_path / "run.bad"
    path.write_text("anything\n")
    with pytest.raises(
        PluginError, match=rf"format 'badfmt' of plugin {DIST} .* in read_run\(\)"
    ) as info:
        read_run(path, registry=registry)
    assert str(path) in str(info.value)


@pytest.mark.parametrize("mode", ["raise", "exit"])
def test_convert_from_a_failing_plugin_reader_names_plugin_format_and_file(
    ef_make_dist, tmp_path, mode
) -> None:
    registry = install(ef_make_dist, mode)
    path = tmp_path / "run.bad"
    path.write_text("anything\n")
    with pytest.raises(
        PluginError, match=rf"format 'badfmt' of plugin {DIST} .* in read_run\(\), on the file "
    ) as info:
        convert(path, tmp_path / "out.trec", kind="run", registry=registry)
    assert str(path) in str(info.value)
    assert not (tmp_path / "out.trec").exists()


def test_a_plugin_detect_that_fails_names_plugin_and_file(tmp_path) -> None:
    from ef.evaluation import DatasetFormat, hookimpl

    def detect(path):
        raise OSError("cannot look")

    class Fmt:
        @hookimpl
        def ef_evaluation_formats(self):
            return DatasetFormat(name="nosy", read_run=lambda p: {}, detect=detect)

    path = tmp_path / "run.txt"
    path.write_text("q1 Q0 d1 1 1.0 x\n")
    with pytest.raises(
        PluginError,
        match=r"format 'nosy' of plugin 'fmt' raised OSError: cannot look in detect\(\)",
    ):
        read_run(path, registry=registry_with(Fmt(), plugin="fmt"))


def test_a_plugin_writer_that_fails_is_a_plugin_error(tmp_path) -> None:
    from ef.evaluation import DatasetFormat, hookimpl

    def write(path, run):
        raise SystemExit(3)

    class Fmt:
        @hookimpl
        def ef_evaluation_formats(self):
            return DatasetFormat(name="w", write_run=write)

    with pytest.raises(
        PluginError, match=r"format 'w' of plugin 'fmt' called sys\.exit\(3\) in write_run\(\)"
    ):
        write_run(tmp_path / "out.w", RUN, format="w", registry=registry_with(Fmt(), plugin="fmt"))


def test_a_builtin_reader_error_stays_a_dataset_format_error(tmp_path, builtin_registry) -> None:
    path = tmp_path / "qrels.txt"
    path.write_text("q1 0 d1\n")
    with pytest.raises(DatasetFormatError) as info:
        read_qrels(path, registry=builtin_registry)
    assert not isinstance(info.value, PluginError)


# -- retriever adapters --------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["raise", "exit"])
def test_an_adapter_that_fails_in_accepts_names_the_adapter(ef_make_dist, mode) -> None:
    registry = install(ef_make_dist, mode)

    class Odd:
        odd = True

    with pytest.raises(
        PluginError,
        match=rf"adapter 'badadapter' of plugin {DIST} .* in accepts\(\), on a Odd retriever",
    ):
        evaluate_retrieval(Odd(), QRELS, QUERIES, registry=registry)


def test_an_adapter_that_fails_in_adapt_names_the_adapter() -> None:
    from ef.evaluation import RetrieverAdapter, hookimpl

    def adapt(retriever):
        raise ValueError("no")

    class Adapters:
        @hookimpl(tryfirst=True)
        def ef_evaluation_retriever_adapters(self):
            return RetrieverAdapter(name="picky", accepts=lambda r: True, adapt=adapt)

    registry = registry_with(Adapters(), plugin="adapters")
    with pytest.raises(
        PluginError,
        match=r"adapter 'picky' of plugin 'adapters' raised ValueError: no in adapt\(\)",
    ):
        evaluate_retrieval(lambda q, *, limit: [], QRELS, QUERIES, registry=registry)


def test_the_users_retriever_raising_is_still_a_retriever_error(builtin_registry) -> None:
    def retriever(query, *, limit):
        raise RuntimeError("down")

    with pytest.raises(RetrieverError, match="down"):
        evaluate_retrieval(retriever, QRELS, QUERIES, registry=builtin_registry)


# -- RAG metrics ---------------------------------------------------------------------------

SAMPLES = [
    {"id": "s1", "response": "a", "reference": "a"},
    {"id": "s2", "response": "b", "reference": "b"},
]


@pytest.mark.parametrize("mode", ["raise", "exit"])
def test_a_rag_metric_that_fails_names_plugin_metric_and_sample(ef_make_dist, mode) -> None:
    registry = install(ef_make_dist, mode)
    with pytest.raises(
        PluginError,
        match=rf"metric 'ragboom' of plugin {DIST} .* in its func, on sample 1 \(id 's2'\)",
    ):
        evaluate_rag(SAMPLES, metrics=("ragboom",), registry=registry)


@pytest.mark.parametrize("value", [float("inf"), float("-inf")])
def test_a_rag_metric_returning_an_infinity_names_the_sample(value) -> None:
    metric = RagMetric(name="huge", func=lambda s: value if s.get("id") == "s2" else 1.0)
    with pytest.raises(
        PluginError,
        match=r"RAG metric 'huge' returned -?inf for sample 1 \(id 's2'\) \(the metric of plugin 'test'\)",
    ):
        evaluate_rag(SAMPLES, metrics=("huge",), registry=registry_with(metric))


# -- the CLI -------------------------------------------------------------------------------


def _files(tmp_path: Path) -> tuple[str, str]:
    qrels, run = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels.write_text("q1 0 d1 1\nq2 0 d2 1\n")
    run.write_text("q1 Q0 d1 1 1.0 x\nq2 Q0 d2 1 1.0 x\n")
    return str(qrels), str(run)


@pytest.mark.parametrize("mode", ["raise", "exit"])
def test_the_cli_prints_a_failing_plugin_metric_as_one_line(ef_make_dist, tmp_path, mode) -> None:
    install(ef_make_dist, mode)
    qrels, run = _files(tmp_path)
    code, err = cli_run("evaluate", qrels, run, "-m", "perq", "-k", "1")
    assert code == 2
    assert err.startswith("Error: metric 'perq' of plugin 'bad' (ef-evaluation-bad 1.0)")
    assert "query 'q2'" in err
    assert "internal error" not in err
    assert len(err.strip().splitlines()) == 1


def test_the_cli_prints_a_plugin_exiting_at_import_as_one_line(ef_make_dist, tmp_path) -> None:
    ef_make_dist(
        "ef-evaluation-bad", "1.0", {"bad": "bad_mod"}, {"bad_mod": "import sys\nsys.exit(0)\n"}
    )
    qrels, run = _files(tmp_path)
    code, err = cli_run("evaluate", qrels, run)
    assert code == 2
    assert "'bad'" in err
    assert "ef-evaluation-bad 1.0" in err
    assert "sys.exit(0)" in err


def test_the_cli_prints_a_failing_plugin_reader_as_one_line(ef_make_dist, tmp_path) -> None:
    install(ef_make_dist)
    qrels, _ = _files(tmp_path)
    run = tmp_path / "run.bad"
    run.write_text("x\n")
    code, err = cli_run("evaluate", qrels, str(run))
    assert code == 2
    assert "format 'badfmt' of plugin 'bad' (ef-evaluation-bad 1.0)" in err
    assert str(run) in err


def test_the_cli_prints_a_failing_rag_plugin_metric_as_one_line(ef_make_dist, tmp_path) -> None:
    install(ef_make_dist)
    path = tmp_path / "samples.jsonl"
    path.write_text("".join(json.dumps(s) + "\n" for s in SAMPLES))
    code, err = cli_run("rag", str(path), "-m", "ragboom")
    assert code == 2
    assert "metric 'ragboom' of plugin 'bad' (ef-evaluation-bad 1.0)" in err
    assert "'s2'" in err
