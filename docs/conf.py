"""Sphinx configuration for the ef-evaluation documentation.

Build with ``sphinx-build -W --keep-going -b html docs docs/_build/html`` (tox -e docs).
"""

from __future__ import annotations

import importlib.metadata
from typing import Any

project = "ef-evaluation"
author = "ef-evaluation developers"
copyright = "ef-evaluation developers"
release = importlib.metadata.version("ef-evaluation")
version = ".".join(release.split(".")[:2])

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
# docs/examples/ holds the example plugin's sources; its files are included with
# literalinclude, not built as pages.
exclude_patterns = ["_build", "examples/**", "Thumbs.db", ".DS_Store"]

# MyST: ::: fences, definition lists, and #anchors for every heading down to ###.
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# autodoc + napoleon: the docstrings are Google style (Args:/Returns:/Raises:).
autodoc_typehints = "description"
autodoc_typehints_description_target = "documented_params"
autodoc_member_order = "bysource"
napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_rtype = False

# No intersphinx: the docs must build offline, and a failed inventory fetch is a warning.

# Every cross-reference must resolve, so a stale one (a moved module, a renamed name) fails
# the build under -W.
nitpicky = True
nitpick_ignore = [
    # Standard library and third-party types in signatures: without intersphinx they have no
    # target here.
    *(
        ("py:class", name)
        for name in (
            "collections.abc.Callable",
            "collections.abc.Iterable",
            "collections.abc.Iterator",
            "collections.abc.Mapping",
            "collections.abc.Sequence",
            "concurrent.futures.Executor",
            "concurrent.futures._base.Executor",
            "cf.Executor",  # concurrent.futures, as evaluate/run.py imports it
            "os.PathLike",
            "pathlib.Path",
            "Path",
            "Figure",  # matplotlib's
            "pluggy.HookimplMarker",
        )
    ),
    # Aliases private to the module whose signature names them (a module of its own would be
    # internal: an underscore path), so with no page of their own.
    *(
        ("py:class", name)
        for name in (
            "RunLike",
            "System",
            "ShardsInput",
            "SubtopicInput",
            "CorpusInput",
            "Ints",
            "Keyword",
            "ef.evaluation.errors._Composed",
            "ef.evaluation._plugin_engine.registry.T",
            "ef.evaluation.adapters._bm25s.BM25sSearch",
            "ef.evaluation.adapters._haystack.HaystackSearch",
            "ef.evaluation.adapters._langchain.LangChainSearch",
            "ef.evaluation.adapters._llamaindex.LlamaIndexSearch",
            # The reports of the store's reads: Store.history and Store.leaderboard say
            # what they hold.
            "ef.evaluation._store.reads.History",
            "ef.evaluation._store.reads.Leaderboard",
        )
    ),
]

html_theme = "furo"
html_title = f"ef-evaluation {release}"


# Napoleon reads the first line of an attribute or property docstring as "type: description",
# so "The headline number: mean NDCG@10" would render with the type "The headline number".
# These docstrings are plain prose: keep them as written.
_ATTRIBUTE_KINDS = {"attribute", "property", "data"}
_raw_attribute_docs: dict[str, list[str]] = {}


# Sphinx passes event arguments positionally, hence the noqa: PLR0917 below.
def _keep_raw(  # noqa: PLR0917
    app: Any, what: str, name: str, obj: Any, options: Any, lines: list[str]
) -> None:
    if what in _ATTRIBUTE_KINDS:
        _raw_attribute_docs[name] = list(lines)


def _undo_inline_type(  # noqa: PLR0917
    app: Any, what: str, name: str, obj: Any, options: Any, lines: list[str]
) -> None:
    raw = _raw_attribute_docs.pop(name, None)
    added_type = not any(line.startswith(":type:") for line in raw or ()) and any(
        line.startswith(":type:") for line in lines
    )
    if raw is not None and added_type:
        lines[:] = raw


def _attrs_defaults(  # noqa: PLR0917
    app: Any, what: str, name: str, obj: Any, options: Any, signature: str | None, ret: str | None
) -> tuple[str | None, str | None]:
    # attrs shows a factory default as NOTHING; say <factory>, as dataclasses do.
    if signature is not None:
        signature = signature.replace("=NOTHING", "=<factory>")
    return signature, ret


def setup(app: Any) -> None:
    app.connect("autodoc-process-docstring", _keep_raw, priority=100)  # before napoleon
    app.connect("autodoc-process-docstring", _undo_inline_type, priority=900)  # after it
    app.connect("autodoc-process-signature", _attrs_defaults)
