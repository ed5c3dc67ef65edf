"""Whether any installed distribution may declare an entry-point group, found without
importing importlib-metadata.

Most installs have no plugin, and importing importlib-metadata (with zipp, tempfile and
shutil behind it) and listing its distributions costs several milliseconds of every command's
start. This scan looks where importlib-metadata's path finder looks, the same way: each
``sys.path`` folder's ``*.dist-info`` and ``*.egg-info`` folders (any case), and an
``EGG-INFO`` folder inside a ``*.egg`` path entry, for an ``entry_points.txt`` holding the
group's section line. Where it cannot see as importlib-metadata does (a path entry that is a
zip file, or a finder of distributions other than the path's own on ``sys.meta_path``), it
answers "maybe" and importlib-metadata decides.
"""

from __future__ import annotations

import os
import sys

__all__ = ["may_declare"]

_METADATA_FOLDERS = (".dist-info", ".egg-info")

#: The finders whose distributions are the ``sys.path`` folders': the interpreter's path
#: finder, and importlib-metadata's own (which takes the path finder's place once imported).
_PATH_FINDER_MODULES = frozenset({"_frozen_importlib_external", "importlib_metadata"})


def may_declare(group: str) -> bool:
    """False if no distribution on ``sys.path`` declares entry points of ``group``; True if
    one may (importlib-metadata then parses them).

    >>> may_declare("no_such_group_anywhere")
    False
    """
    section = f"[{group}]".encode()
    return _other_finders() or any(_entry_may_declare(entry, section) for entry in sys.path)


def _entry_may_declare(entry: str, section: bytes) -> bool:
    """Whether the ``sys.path`` entry ``entry`` holds a distribution that may declare
    ``section``."""
    try:
        children = os.scandir(entry or ".")
    except (NotADirectoryError, TypeError):
        return True  # a zip file (or an odd entry): importlib-metadata reads inside it
    except OSError:
        return False  # absent or unreadable: importlib-metadata skips it too
    with children:
        egg = os.path.basename(entry).lower().endswith(".egg")
        return any(_holds(c.path, section) for c in children if _is_metadata(c.name, egg))


def _is_metadata(name: str, egg: bool) -> bool:
    """A distribution's metadata folder, as importlib-metadata's path finder tells it."""
    low = name.lower()
    return low.endswith(_METADATA_FOLDERS) or (egg and low == "egg-info")


def _other_finders() -> bool:
    return any(
        getattr(finder, "find_distributions", None) is not None
        and getattr(finder, "__module__", None) not in _PATH_FINDER_MODULES
        for finder in sys.meta_path
    )


def _holds(folder: str, section: bytes) -> bool:
    try:
        with open(os.path.join(folder, "entry_points.txt"), "rb") as file:
            return section in file.read()
    except OSError:  # none there (or not a folder: an .egg-info file has no entry points)
        return False
