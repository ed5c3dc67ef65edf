"""Where the store is: a URL given, ``EF_EVALUATION_STORE``, or the default SQLite file.

A URL is ``sqlite:///absolute/path.sqlite``, a plain file path (SQLite too), or
``postgresql://user@host:port/database`` (``postgres://`` alike), which libpq reads as it
reads any connection URI (``?host=/run/postgresql`` for a unix socket). The default file
follows the platform's place for application data, with no dependency to find it:

* Linux and the other Unixes: ``$XDG_DATA_HOME/ef-evaluation/store.sqlite``, and
  ``~/.local/share/ef-evaluation/store.sqlite`` when ``XDG_DATA_HOME`` is unset;
* macOS: ``~/Library/Application Support/ef-evaluation/store.sqlite``;
* Windows: ``%LOCALAPPDATA%\\ef-evaluation\\store.sqlite``.

>>> where("sqlite:////tmp/ef/store.sqlite")
Where(kind='sqlite', target='/tmp/ef/store.sqlite')
>>> where("postgresql://ef@127.0.0.1:5432/evals").kind
'postgresql'
>>> shown("postgresql://ef:secret@db.example/evals")
'postgresql://ef:***@db.example/evals'
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urlsplit, urlunsplit

__all__ = ["ENVIRONMENT", "Where", "default_path", "shown", "store_url", "where"]

#: The environment variable that names the store (a URL or a path); it never turns recording
#: on by itself.
ENVIRONMENT = "EF_EVALUATION_STORE"
_FOLDER = "ef-evaluation"
_FILE = "store.sqlite"


class Where(NamedTuple):
    """A store's backend (``"sqlite"`` or ``"postgresql"``) and its file path or URL."""

    kind: str
    target: str


def default_path() -> Path:
    """The default SQLite file of this platform (see the module's docstring)."""
    home = Path.home()
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or home / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        # The XDG spec: an unset, empty or relative XDG_DATA_HOME is ignored.
        given = os.environ.get("XDG_DATA_HOME", "")
        base = Path(given) if os.path.isabs(given) else home / ".local" / "share"
    return base / _FOLDER / _FILE


def store_url(url: str | os.PathLike[str] | None = None) -> str:
    """``url`` if given, else ``EF_EVALUATION_STORE`` if set, else the default file."""
    if url is not None:
        return os.fspath(url)
    return os.environ.get(ENVIRONMENT) or str(default_path())


def where(url: str) -> Where:
    """Which backend ``url`` names, and what it opens.

    Raises:
        ValueError: for a URL of another scheme, naming the ones there are.
    """
    scheme, _, rest = url.partition("://")
    if not rest or os.path.isabs(url) or len(scheme) == 1:  # a path (C:\\... on Windows)
        return Where("sqlite", os.path.expanduser(url))
    scheme = scheme.lower()
    if scheme == "sqlite":
        # sqlite:///relative/file is relative, sqlite:////absolute/file absolute (as
        # SQLAlchemy reads them); the host part must be empty.
        host, _, path = rest.partition("/")
        if host or not path:
            raise ValueError(
                f"a SQLite store URL is sqlite:///path/to/store.sqlite, got {shown(url)!r}"
            )
        return Where("sqlite", os.path.expanduser(path))
    if scheme in ("postgresql", "postgres"):
        return Where("postgresql", url)
    raise ValueError(
        f"unknown store URL {shown(url)!r}: use sqlite:///path/to/store.sqlite, a file path, "
        "or postgresql://user@host/database"
    )


def shown(url: str) -> str:
    """``url`` with its password, if any, replaced by ``***``: for messages and logs."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))
