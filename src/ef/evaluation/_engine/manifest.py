"""The reproducibility manifest every report carries: versions, parameters, policies, inputs.

A manifest is a plain dict (JSON-ready): what someone needs to get the same numbers again.

* ``ef_evaluation``, ``python``: the versions that computed the report;
* ``plugins``: name, distribution and version of each plugin that provided a metric used;
* ``metrics``: each report key with its metric name, cutoff ``k``, every parameter's value
  (``params``, defaults included) and providing plugin;
* ``tie_policy``: one of :data:`~ef.evaluation._engine.ties.TIE_POLICIES` for scored runs
  (``"trec_eval"`` by default), ``"input_order"`` for ranked lists;
* ``averaging``: ``"qrels"``, ``"intersection"`` or ``"run"`` (DESIGN §4) for retrieval
  (``"all"`` under the ranx profile), and ``"scored_samples"`` for RAG (a metric's mean is
  over the samples it scored);
* ``profile``: under a compatibility profile, its name, the tool, whether identical ids
  were dropped, and each metric's rule (:mod:`ef.evaluation._engine.profiles`);
* ``inputs``: for every input given as a path, the path and the sha256 and size of the file
  read (for a BEIR directory, its qrels file); for a sharded run, a list of those, one per
  shard in the order scored.
"""

from __future__ import annotations

import os
import platform
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from .._formats.digests import asked, recorded, recorded_url
from .._formats.sources import is_irds, is_url
from .._plugin_engine.registry import Registry
from .._version import __version__

__all__ = [
    "file_entry",
    "rag_manifest",
    "retrieval_manifest",
]


def file_entry(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The path, sha256 and size of an input file; a BEIR directory stands for its qrels.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = pathlib.Path(tmp, "run.txt")
    ...     _ = path.write_bytes(b"q1 Q0 d1 1 2.5 bm25\\n")
    ...     entry = file_entry(path)
    >>> entry["sha256"][:12], entry["bytes"]
    ('c9f7e388ce61', 20)
    """
    if is_url(path):  # read through a local copy, hashed on the way (formats.remote)
        sha256, size = recorded_url(path) or (None, None)
        return {"path": path, "sha256": sha256, "bytes": size}
    if is_irds(path):  # an ir_datasets id: its files are ir_datasets' (formats.irds)
        return {"path": path, "sha256": None, "bytes": None}
    source = Path(path)
    if source.is_dir():
        from .._formats.beir import DEFAULT_QRELS_PATHS

        found = next((source / p for p in DEFAULT_QRELS_PATHS if (source / p).is_file()), None)
        if found is None:
            return {"path": str(path), "sha256": None, "bytes": None}
        source = found
    shown = str(path) if source == Path(path) else str(source)
    if not asked():  # a command that shows no manifest: not hashed (formats.digests)
        return {"path": shown, "sha256": None, "bytes": None}
    known = recorded(source)  # hashed by the reader as it read the file: no second pass
    if known is not None:
        return {"path": shown, "sha256": known[0], "bytes": known[1]}
    import hashlib  # here: OpenSSL's load is 5 ms of a start that may hash nothing

    digest = hashlib.sha256()
    size = 0
    with source.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
            size += len(block)
    return {"path": shown, "sha256": digest.hexdigest(), "bytes": size}


#: A metric of a report: its key, metric name, cutoff and every parameter's value.
MetricEntry = tuple[str, str, "int | None", "Mapping[str, Any]"]


def _base(registry: Registry, metrics: Iterable[MetricEntry]) -> dict[str, Any]:
    entries = []
    providers: dict[str, str] = {}  # a metric's plugin, asked once for all its cutoffs
    for key, name, k, params in metrics:
        if name not in providers:
            providers[name] = registry.provider_name(name)
        plugin = providers[name]
        entries.append({"key": key, "name": name, "k": k, "params": dict(params), "plugin": plugin})
    used = dict.fromkeys(providers.values())
    infos = {name: registry.plugin_info(name) for name in used}
    return {
        "ef_evaluation": __version__,
        "python": platform.python_version(),
        "plugins": [
            {
                "name": name,
                "distribution": infos[name].distribution,
                "version": infos[name].version,
            }
            for name in used
        ],
        "metrics": entries,
    }


def retrieval_manifest(
    registry: Registry,
    keys: Iterable[MetricEntry],
    *,
    tie_policy: str,
    averaging: str,
    inputs: Mapping[str, object] | None = None,
) -> dict[str, Any]:
    """The manifest of a retrieval report: ``keys`` are ``(key, metric name, k, params)``,
    ``params`` holding every parameter's value, defaults included.

    >>> from ef.evaluation import Registry
    >>> manifest = retrieval_manifest(
    ...     Registry.load(autoload=False), [("precision(rel=2)@5", "precision", 5,
    ...     {"rel": 2.0, "judged_only": False})], tie_policy="trec_eval", averaging="qrels")
    >>> manifest["metrics"]
    [{'key': 'precision(rel=2)@5', 'name': 'precision', 'k': 5, \
'params': {'rel': 2.0, 'judged_only': False}, 'plugin': 'builtin.retrieval_metrics'}]
    >>> manifest["tie_policy"], manifest["averaging"]
    ('trec_eval', 'qrels')
    """
    manifest = _base(registry, keys)
    manifest["tie_policy"] = tie_policy
    manifest["averaging"] = averaging
    manifest["inputs"] = _inputs(inputs or {})
    return manifest


def rag_manifest(
    registry: Registry,
    keys: Iterable[MetricEntry],
    *,
    inputs: Mapping[str, object] | None = None,
) -> dict[str, Any]:
    """The manifest of a RAG report: ``keys`` are ``(key, metric name, k, params)`` as for
    :func:`retrieval_manifest`, with the files among ``inputs``.

    >>> from ef.evaluation import Registry
    >>> manifest = rag_manifest(Registry.load(autoload=False), [("token_f1(normalize='squad')",
    ...     "token_f1", None, {"normalize": "squad", "lang": None})])
    >>> manifest["metrics"], manifest["averaging"]
    ([{'key': "token_f1(normalize='squad')", 'name': 'token_f1', 'k': None, \
'params': {'normalize': 'squad', 'lang': None}, 'plugin': 'builtin.rag_metrics'}], \
'scored_samples')
    """
    manifest = _base(registry, keys)
    manifest["averaging"] = "scored_samples"
    manifest["inputs"] = _inputs(inputs or {})
    return manifest


def _is_entry(value: object) -> bool:
    return isinstance(value, Mapping) and {"path", "sha256", "bytes"} <= value.keys()


def _inputs(paths: Mapping[str, object]) -> dict[str, Any]:
    """Each input given as a path, or as a :func:`file_entry` value or a list of them (taken
    where and when the file was read: the shards of a sharded run, qrels at a URL)."""
    kept: dict[str, Any] = {}
    for role, value in paths.items():
        if isinstance(value, (str, os.PathLike)):
            kept[role] = file_entry(value)
        elif _is_entry(value):
            kept[role] = dict(value)  # type: ignore[call-overload]  # a Mapping, _is_entry says
        elif isinstance(value, (list, tuple)) and value and all(map(_is_entry, value)):
            kept[role] = [dict(v) for v in value]
    return kept
