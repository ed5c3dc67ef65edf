"""What a source string names where a file's path is expected: an ir_datasets id
(``irds:<dataset-id>``, :mod:`.irds` reads it) or an fsspec URL (``s3://...``, :mod:`.remote`
reads it), and whether a URL is a glob. Told apart here without loading either reader, so
that scoring local files loads neither.

>>> is_irds("irds:msmarco-passage/dev/small"), is_url("s3://bucket/run.trec")
(True, True)
>>> is_url("runs/run.trec"), is_url("C:\\\\runs\\\\run.trec"), url_glob("s3://bucket/*.trec")
(False, False, True)
"""

from __future__ import annotations

import os
import re
from typing import TypeGuard

__all__ = ["GLOB_CHARS", "PREFIX", "is_irds", "is_url", "url_glob"]

#: What starts an ir_datasets id.
PREFIX = "irds:"
#: ``protocol://``, possibly after chained ones (``simplecache::s3://``); a protocol of one
#: letter would be a Windows drive.
_URL = re.compile(r"(?:[A-Za-z][\w+.-]*::)*[A-Za-z][A-Za-z0-9+.-]+://")
#: The characters that make a path or URL a glob pattern (as :mod:`glob` reads them).
GLOB_CHARS = frozenset("*?[")
#: Protocols whose ``?`` starts a query string, never a glob.
_NO_GLOB = frozenset({"http", "https"})


def is_irds(value: object) -> TypeGuard[str]:
    """Whether ``value`` is an ``irds:<dataset-id>`` str that names no local file."""
    return isinstance(value, str) and value.startswith(PREFIX) and not os.path.exists(value)


def is_url(value: object) -> TypeGuard[str]:
    """Whether ``value`` is a str with a protocol (``s3://...``) that names no local file."""
    return isinstance(value, str) and bool(_URL.match(value)) and not os.path.exists(value)


def url_glob(url: str) -> bool:
    """Whether the URL ``url`` is a glob pattern: ``*``, ``?`` or ``[`` in its path."""
    protocol, _, path = url.partition("://")
    return protocol.split("::")[-1] not in _NO_GLOB and bool(GLOB_CHARS & set(path))
