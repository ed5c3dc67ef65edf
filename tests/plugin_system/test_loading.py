"""Plugin discovery through real entry points (fake .dist-info directories on sys.path)."""

from __future__ import annotations

import pytest

from ef.evaluation import (
    RETRIEVAL_METRICS,
    DuplicateNameError,
    PluginError,
    PluginLoadError,
    Registry,
    evaluate_rag,
    evaluate_retrieval,
    list_plugins,
    read_qrels,
)

HITS_PLUGIN = """
from ef.evaluation import RagMetric, RetrievalMetric, hookimpl

def hits_at_k(ranked, relevant, k):
    '''1.0 if any of the top k is relevant.'''
    return float(any(relevant.get(d, 0) > 0 for d in ranked[:k]))

@hookimpl
def ef_evaluation_metrics():
    return [
        RetrievalMetric(name="hits", func=hits_at_k),
        RagMetric(name="answer_length", func=lambda s: float(len(s["response"])) if "response" in s else None),
    ]
"""

QRELS = {"q1": {"d1": 1}, "q2": {"d2": 1}}
QUERIES = {"q1": "one", "q2": "two"}


def retriever(query, *, limit):
    return ["x", "d1"] if query == "one" else ["x", "y"]


def test_an_entry_point_plugin_is_discovered_and_used_by_name(ef_make_dist) -> None:
    ef_make_dist("ef-evaluation-foo", "0.2.0", {"foo": "foo_hits"}, {"foo_hits": HITS_PLUGIN})
    registry = Registry.load()
    info = registry.provider("hits")
    assert (info.name, info.distribution, info.version, info.builtin) == (
        "foo",
        "ef-evaluation-foo",
        "0.2.0",
        False,
    )
    assert info.entry_point == "foo = foo_hits"
    assert info.provides == {"metric": ("answer_length", "hits")}

    report = evaluate_retrieval(
        retriever, QRELS, QUERIES, k_values=(1, 2), metrics=("ndcg", "hits"), registry=registry
    )
    assert report.metrics["hits@1"] == 0.0
    assert report.metrics["hits@2"] == 0.5
    assert set(report.metrics) == {"ndcg@1", "ndcg@2", "hits@1", "hits@2"}

    rag = evaluate_rag([{"response": "abc"}, {}], metrics=("answer_length",), registry=registry)
    assert rag.metrics["answer_length"] == 3.0
    assert rag.coverage["answer_length"] == 1


def test_the_default_registry_and_retrieval_metrics_see_plugins(ef_make_dist) -> None:
    ef_make_dist("ef-evaluation-foo", "0.2.0", {"foo": "foo_hits2"}, {"foo_hits2": HITS_PLUGIN})
    import foo_hits2  # type: ignore[import-not-found]

    assert RETRIEVAL_METRICS["hits"] is foo_hits2.hits_at_k
    assert {"ndcg", "recall", "precision", "mrr", "map", "hits"} <= set(RETRIEVAL_METRICS)
    assert "foo" in [p.name for p in list_plugins()]
    report = evaluate_retrieval(retriever, QRELS, QUERIES, k_values=(2,), metrics=("hits",))
    assert report.metrics == {"hits@2": 0.5}


def test_retrieval_metrics_is_read_only() -> None:
    with pytest.raises(TypeError):
        RETRIEVAL_METRICS["mine"] = len  # type: ignore[index]
    assert "map" in repr(RETRIEVAL_METRICS)


def test_a_name_clash_names_both_plugins(ef_make_dist) -> None:
    ef_make_dist(
        "ef-evaluation-clash", "1.5", {"clash": "clash_mod"},
        {"clash_mod": """
            from ef.evaluation import RetrievalMetric, hookimpl, ndcg_at_k
            @hookimpl
            def ef_evaluation_metrics():
                return RetrievalMetric(name="ndcg", func=ndcg_at_k)
        """},
    )  # fmt: skip
    with pytest.raises(DuplicateNameError) as info:
        Registry.load()
    message = str(info.value)
    assert "metric 'ndcg' is provided by two plugins" in message
    assert "'builtin.retrieval_metrics' (ef-evaluation " in message
    assert "'clash' (ef-evaluation-clash 1.5)" in message
    assert "EF_EVALUATION_DISABLE_PLUGINS=clash" in message
    assert "ndcg" in Registry.load(disable=["clash"]).retrieval_metrics


def test_a_broken_plugin_names_entry_point_distribution_version_and_the_way_out(
    ef_make_dist, monkeypatch
) -> None:
    ef_make_dist(
        "ef-evaluation-broken",
        "3.1.4",
        {"broken": "broken_mod:plugin"},
        {"broken_mod": "import not_installed_anywhere\n"},
    )
    with pytest.raises(PluginLoadError) as info:
        Registry.load()
    message = str(info.value)
    assert "plugin 'broken' (entry point 'broken = broken_mod:plugin'" in message
    assert "ef-evaluation-broken 3.1.4" in message
    assert "ModuleNotFoundError: No module named 'not_installed_anywhere'" in message
    assert "set EF_EVALUATION_DISABLE_PLUGINS=broken" in message
    assert isinstance(info.value, ImportError)
    assert isinstance(info.value.__cause__, ModuleNotFoundError)

    monkeypatch.setenv("EF_EVALUATION_DISABLE_PLUGINS", "other, broken")
    assert "broken" not in [p.name for p in Registry.load().plugins]


@pytest.mark.parametrize(
    ("value", "loads_plugins"), [("1", False), ("true", False), ("0", True), ("", True)]
)
def test_autoload_switch(ef_make_dist, monkeypatch, value, loads_plugins) -> None:
    ef_make_dist("ef-evaluation-foo", "0.2.0", {"foo": "foo_auto"}, {"foo_auto": HITS_PLUGIN})
    monkeypatch.setenv("EF_EVALUATION_DISABLE_PLUGIN_AUTOLOAD", value)
    registry = Registry.load()
    assert ("hits" in registry.retrieval_metrics) is loads_plugins
    assert "ndcg" in registry.retrieval_metrics  # built-ins load either way


def test_built_ins_can_be_blocked_too() -> None:
    registry = Registry.load(autoload=False, disable=["builtin.formats"])
    assert dict(registry.formats) == {}
    assert "builtin.formats" not in [p.name for p in registry.plugins]


def test_the_builtin_prefix_is_reserved(ef_make_dist) -> None:
    ef_make_dist(
        "ef-evaluation-sneaky", "1.0", {"builtin.metrics": "sneaky_mod"}, {"sneaky_mod": ""}
    )
    with pytest.raises(PluginError, match=r"uses the reserved prefix 'builtin\.'"):
        Registry.load()


def test_one_plugin_name_from_two_distributions_is_an_error(ef_make_dist) -> None:
    ef_make_dist("ef-evaluation-a", "1.0", {"same": "same_a"}, {"same_a": ""})
    ef_make_dist("ef-evaluation-b", "2.0", {"same": "same_b"}, {"same_b": ""})
    with pytest.raises(
        PluginError,
        match=r"two installed distributions declare the plugin 'same'.*ef-evaluation-[ab].*ef-evaluation-[ab]",
    ):
        Registry.load()


def test_a_misspelt_hook_is_an_error(ef_make_dist) -> None:
    ef_make_dist(
        "ef-evaluation-typo", "1.0", {"typo": "typo_mod"},
        {"typo_mod": """
            from ef.evaluation import hookimpl
            @hookimpl
            def ef_evaluation_metric():
                return []
        """},
    )  # fmt: skip
    with pytest.raises(
        PluginError,
        match=r"plugin 'typo' \(ef-evaluation-typo 1.0\) implements a hook that does not exist.*ef_evaluation_metrics",
    ):
        Registry.load()


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "raise RuntimeError('boom')",
            r"plugin 'bad' \(ef-evaluation-bad 1.0\) raised in ef_evaluation_metrics\(\): RuntimeError: boom",
        ),
        (
            "return ['ndcg']",
            r"returned 'ndcg' from ef_evaluation_metrics\(\); expected RetrievalMetric or RagMetric objects",
        ),
    ],
)
def test_a_misbehaving_hook_is_an_error_naming_the_plugin(ef_make_dist, body, message) -> None:
    ef_make_dist(
        "ef-evaluation-bad", "1.0", {"bad": "bad_mod"},
        {"bad_mod": f"from ef.evaluation import hookimpl\n@hookimpl\ndef ef_evaluation_metrics():\n    {body}\n"},
    )  # fmt: skip
    with pytest.raises(PluginError, match=message):
        Registry.load()


ADAPTER_PLUGIN = """
from ef.evaluation import RetrieverAdapter, hookimpl

class Index:
    def __init__(self, docs):
        self.docs = docs

@hookimpl{marker}
def ef_evaluation_retriever_adapters():
    return [RetrieverAdapter(name="{name}", accepts=lambda obj: isinstance(obj, Index),
                             adapt=lambda obj: lambda query, limit: obj.docs[:limit])]
"""


def test_plugin_adapters_are_asked_before_the_built_ins(ef_make_dist) -> None:
    ef_make_dist(
        "ef-evaluation-idx",
        "1.0",
        {"idx": "idx_mod"},
        {"idx_mod": ADAPTER_PLUGIN.format(marker="", name="idx")},
    )
    import idx_mod  # type: ignore[import-not-found]

    registry = Registry.load()
    assert [a.name for a in registry.adapters] == [
        "idx",
        "langchain",
        "llamaindex",
        "haystack",
        "bm25s",
        "search_batch_method",
        "search_method",
        "retrieve_method",
        "precomputed_run",
        "callable",
    ]
    report = evaluate_retrieval(
        idx_mod.Index(["d1"]), QRELS, QUERIES, k_values=(1,), registry=registry
    )
    assert report.metrics["ndcg@1"] == 0.5


def test_tryfirst_orders_adapters_across_plugins(ef_make_dist) -> None:
    ef_make_dist(
        "ef-evaluation-first",
        "1.0",
        {"first": "first_mod"},
        {"first_mod": ADAPTER_PLUGIN.format(marker="(tryfirst=True)", name="first")},
    )
    ef_make_dist(
        "ef-evaluation-second",
        "1.0",
        {"second": "second_mod"},
        {"second_mod": ADAPTER_PLUGIN.format(marker="", name="second")},
    )
    names = [a.name for a in Registry.load().adapters]
    assert names.index("first") < names.index("second") < names.index("callable")


FORMAT_PLUGIN = """
from ef.evaluation import DatasetFormat, hookimpl

def read_toy(path):
    # "q,d" pairs, one per line: enough of a format to show detection and reading.
    pairs = (line.split(",") for line in __import__("pathlib").Path(path).read_text().split())
    return {{q: {{d: 1}} for q, d in pairs}}

@hookimpl
def ef_evaluation_formats():
    return [DatasetFormat(name="{name}", read_qrels=read_toy, detect=lambda p: p.suffix == ".toy")]
"""


def test_a_format_plugin_is_registered_beside_the_builtin_beir(ef_make_dist, tmp_path) -> None:
    ef_make_dist(
        "ef-evaluation-toy",
        "0.1",
        {"toy": "toy_fmt"},
        {"toy_fmt": FORMAT_PLUGIN.format(name="toy")},
    )
    registry = Registry.load()
    assert list(registry.formats) == [
        "beir",
        "msmarco",
        "parquet",
        "rag_csv",
        "rag_jsonl",
        "toy",
        "trec",
    ]
    assert registry.provider("toy", kind="format").distribution == "ef-evaluation-toy"
    assert registry.provider("beir", kind="format").name == "builtin.formats"
    # A plugin's format is asked before the built-ins when a path's format is detected.
    assert registry.formats_to_detect[0].name == "toy"
    path = tmp_path / "judged.toy"
    path.write_text("q1,d1\nq2,d7\n")
    assert read_qrels(path, registry=registry) == {"q1": {"d1": 1}, "q2": {"d7": 1}}
    with pytest.raises(
        ValueError,
        match=r"unknown format 'tyo'; did you mean 'toy'\? Valid formats: beir, msmarco, parquet, rag_csv, rag_jsonl, toy, trec\.",
    ):
        registry.format("tyo")


def test_a_format_name_clash_names_both_plugins(ef_make_dist) -> None:
    ef_make_dist(
        "ef-evaluation-beir2",
        "2.0",
        {"beir2": "beir2_fmt"},
        {"beir2_fmt": FORMAT_PLUGIN.format(name="beir")},
    )
    with pytest.raises(
        DuplicateNameError,
        match=r"format 'beir' is provided by two plugins: 'builtin.formats' .* and 'beir2' \(ef-evaluation-beir2 2.0\)",
    ):
        Registry.load()


def test_the_builtin_beir_format_reads_and_detects_the_demo(builtin_registry) -> None:
    from ef.evaluation import demo_path

    demo = demo_path()
    beir = builtin_registry.format("beir")
    assert beir.detect is not None
    assert beir.read_dataset is not None
    assert beir.detect(demo)
    assert beir.detect(demo / "qrels" / "test.tsv")
    assert not beir.detect(demo / "missing")
    dataset = beir.read_dataset(demo)
    assert (len(list(dataset.corpus)), len(dataset.queries)) == (36, 15)
    assert list(dataset.qrels) == ["test"]
    assert len(dataset.qrels["test"]) == 15


def test_the_groups_entry_points_equal_importlib_metadatas(tmp_path, monkeypatch) -> None:
    """``group_entry_points`` skips parsing only where no distribution has a section of the
    group: with none, a distribution of another group, the group's name as an entry point of
    another group (as ef-evaluation's pytest plugin is), and a plugin, it gives what
    ``importlib_metadata.entry_points(group=...)`` gives."""
    import importlib_metadata

    from ef.evaluation._plugin_engine.loading import group_entry_points
    from ef.evaluation.testing import make_dist

    def full() -> list[importlib_metadata.EntryPoint]:
        return list(importlib_metadata.entry_points(group="ef_evaluation"))

    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.syspath_prepend(str(site))
    assert group_entry_points() == full()
    make_dist(site, "other-tool", "1.0", {"x": "other_mod"}, group="other")
    make_dist(site, "mentions", "1.0", {"ef_evaluation": "ef_evaluation_mod"}, group="other")
    assert group_entry_points() == full()
    assert not {"other_mod", "ef_evaluation_mod"} & {ep.value for ep in full()}
    make_dist(site, "ef-evaluation-hits", "1.0", {"hits": "hits_mod"})
    found = group_entry_points()
    assert found == full()
    assert [ep.value for ep in found if ep.name == "hits"] == ["hits_mod"]


def _entry_points_txt(folder, group: str) -> None:
    folder.mkdir(parents=True)
    (folder / "METADATA").write_text("Metadata-Version: 2.1\nName: old\nVersion: 1.0\n")
    (folder / "entry_points.txt").write_text(f"[{group}]\nold = old_mod\n")


@pytest.mark.parametrize(
    "layout",
    ["dist-info", "DIST-INFO", "egg-info", "egg", "egg-info file", "other group", "none"],
)
def test_the_scan_sees_a_section_where_importlib_metadata_finds_entry_points(
    tmp_path, monkeypatch, layout: str
) -> None:
    """``may_declare`` looks where importlib-metadata's path finder looks, in each layout a
    distribution's metadata takes on ``sys.path``: it answers True wherever importlib-metadata
    finds an entry point of the group, and False (not importing it) where there is none."""
    import importlib
    import sys

    import importlib_metadata

    from ef.evaluation._plugin_engine.metadata_scan import may_declare

    site = tmp_path / "site"
    site.mkdir()
    path = [str(site)]
    if layout in ("dist-info", "DIST-INFO", "egg-info"):
        _entry_points_txt(site / f"old-1.0.{layout}", "ef_evaluation")
    elif layout == "egg":  # an old egg: the path entry is the .egg folder itself
        _entry_points_txt(site / "old-1.0-py3.11.egg" / "EGG-INFO", "ef_evaluation")
        path.append(str(site / "old-1.0-py3.11.egg"))
    elif layout == "egg-info file":  # PKG-INFO alone, as a file: no entry points
        (site / "old-1.0.egg-info").write_text("Metadata-Version: 1.0\nName: old\n")
    elif layout == "other group":
        _entry_points_txt(site / "old-1.0.dist-info", "not_ef_evaluation_at_all")
    monkeypatch.setattr(sys, "path", path)
    importlib.invalidate_caches()
    found = list(importlib_metadata.entry_points(group="ef_evaluation"))
    assert may_declare("ef_evaluation") == bool(found)
    assert bool(found) == (layout in ("dist-info", "DIST-INFO", "egg-info", "egg"))


def test_the_scan_leaves_what_it_cannot_see_to_importlib_metadata(tmp_path, monkeypatch) -> None:
    import sys
    import zipfile

    from ef.evaluation._plugin_engine.metadata_scan import may_declare

    monkeypatch.setattr(sys, "path", [str(tmp_path / "absent")])
    assert may_declare("ef_evaluation") is False
    archive = tmp_path / "plugins.zip"  # a zip on sys.path: importlib-metadata reads inside
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("old-1.0.dist-info/entry_points.txt", "[other]\nx = y\n")
    monkeypatch.setattr(sys, "path", [str(archive)])
    assert may_declare("ef_evaluation") is True

    class Finder:  # a finder of distributions of its own (not sys.path's)
        @staticmethod
        def find_distributions(context=None):
            return iter(())

    monkeypatch.setattr(sys, "path", [])
    monkeypatch.setattr(sys, "meta_path", [*sys.meta_path, Finder()])
    assert may_declare("ef_evaluation") is True


def test_no_plugin_installed_imports_no_importlib_metadata(tmp_path) -> None:
    """Discovery on a path where no distribution declares the group (one names it in another
    group) finds none, and importlib-metadata is never imported, in a fresh interpreter."""
    import subprocess
    import sys

    from ef.evaluation.testing import make_dist

    site = tmp_path / "site"
    make_dist(site, "mentions", "1.0", {"ef_evaluation": "ef_evaluation_mod"}, group="other")
    sys.path.remove(str(site))
    script = (
        "import sys\n"
        "from ef.evaluation._plugin_engine.loading import group_entry_points\n"
        f"sys.path[:] = [{str(site)!r}]\n"
        "print(group_entry_points(), 'importlib_metadata' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout == "[] False\n"
