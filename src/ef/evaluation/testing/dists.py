"""Throwaway plugin distributions: real ``.dist-info`` metadata on ``sys.path``."""

from __future__ import annotations

import importlib
import sys
import textwrap
from collections.abc import Mapping
from pathlib import Path

from ..hookspecs import NAME as GROUP

__all__ = ["make_dist"]


def make_dist(
    site: str | Path,
    name: str,
    version: str,
    entry_points: Mapping[str, str],
    modules: Mapping[str, str] | None = None,
    *,
    group: str = GROUP,
) -> Path:
    """Install the distribution ``name`` ``version`` in the directory ``site``.

    Writes each of ``modules`` (module name to source, dedented) as ``site/<module>.py``, and
    ``site/<name>-<version>.dist-info`` with ``METADATA`` and an ``entry_points.txt`` that
    declares ``entry_points`` (plugin name to ``module`` or ``module:object``) in ``group``.
    ``site`` is put first on ``sys.path`` if it is not there yet, and the modules are dropped
    from ``sys.modules``, so discovery goes through importlib-metadata exactly as for a
    pip-installed plugin. Returns the ``.dist-info`` directory.

    >>> import sys, tempfile
    >>> site = tempfile.mkdtemp()
    >>> info = make_dist(site, "ef-evaluation-foo", "0.2.0", {"foo": "foo_mod"}, {"foo_mod": ""})
    >>> info.name, sorted(p.name for p in info.iterdir())
    ('ef_evaluation_foo-0.2.0.dist-info', ['METADATA', 'entry_points.txt'])
    >>> sys.path.remove(site)
    """
    site = Path(site)
    site.mkdir(parents=True, exist_ok=True)
    for module, code in (modules or {}).items():
        (site / f"{module}.py").write_text(textwrap.dedent(code), encoding="utf-8")
        sys.modules.pop(module, None)
    info = site / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", encoding="utf-8"
    )
    lines = "".join(f"{ep} = {target}\n" for ep, target in entry_points.items())
    (info / "entry_points.txt").write_text(f"[{group}]\n{lines}", encoding="utf-8")
    if str(site) not in sys.path:
        sys.path.insert(0, str(site))
    importlib.invalidate_caches()
    return info
