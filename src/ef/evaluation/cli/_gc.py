"""No garbage collection while a command's modules load.

Loading numpy, click, attrs and ef's modules makes some hundred thousand objects that live as
long as the process; the collector's passes over them as they are made find nothing, and
take 15 to 20 ms of ``ef-trec-eval``'s 0.3 s on SciFact. :func:`pause` stops collection as
a command starts; :func:`resume` freezes what is loaded by then (never scanned again) and
collects as usual from there: the command's own work is collected as it always was.

>>> import gc
>>> was = gc.isenabled()
>>> pause(); gc.isenabled()
False
>>> resume(); gc.isenabled() == was
True
"""

from __future__ import annotations

import gc

__all__ = ["pause", "resume"]

_paused: list[bool] = []  # True while pause() holds collection off


def pause() -> None:
    """Stop collection, if it is on, until :func:`resume`."""
    if gc.isenabled():
        gc.disable()
        _paused.append(True)


def resume() -> None:
    """Freeze the objects made so far, and collect again if :func:`pause` stopped it."""
    if _paused:
        _paused.clear()
        gc.freeze()
        gc.enable()
