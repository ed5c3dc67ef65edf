"""The word the ``ranx`` profile owes on bpref: where ranx's own bpref is no number.

ranx computes bpref as ``1 - min(n, R) / min(R, N)`` over the relevant docs retrieved,
divided by ``R``: with no judged non-relevant doc (``N = 0``, as in every BEIR test qrels
file) and a relevant one retrieved, that is 0 divided by 0. ranx then gives NaN, or 0.0 when
a query with no relevant doc shares its thread's chunk, so its mean is NaN or a number that
does not count those queries. The profile gives trec_eval's value there, and this says so,
with the queries.

>>> import warnings
>>> from ef.evaluation._engine.measures import parse_measure
>>> from ef.evaluation._runs.ranked import RankedLists
>>> run = RankedLists({"q1": ["d1", "d2"], "q2": ["d3"]})
>>> qrels = {"q1": {"d1": 1}, "q2": {"d3": 1, "d4": 0}}
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     warn_ranx_bpref(run, qrels, parse_measure("bpref"), stacklevel=1)
>>> print(caught[0].message)  # doctest: +NORMALIZE_WHITESPACE
bpref: ranx divides 0 by 0 on 1 of 2 queries ('q1'): a relevant doc retrieved and no
judged non-relevant one; ranx gives NaN there (or 0.0, by its thread chunks), so its mean
is not comparable; the values here are trec_eval's
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .._engine.id_forms import shown_ids
from ..errors import InputWarning

if TYPE_CHECKING:
    from .._engine.measures import Measure
    from .._runs.ranked import RankedRun
    from ..types import Qrels

__all__ = ["warn_ranx_bpref"]


def warn_ranx_bpref(
    table: RankedRun, qrels: Qrels, measures: Sequence[Measure], *, stacklevel: int
) -> None:
    """Warn (``stacklevel`` frames up, as :func:`warnings.warn` counts) when a bpref asked
    for under the ``ranx`` profile is one that ranx itself leaves as 0/0 on some query."""
    from .._engine.profiles import ranx_bpref_undefined  # under the ranx profile only

    levels = {dict(m.params).get("rel") or 1 for m in measures if m.metric.name == "bpref"}
    for level in sorted(levels):
        undefined = ranx_bpref_undefined(table, qrels, level)
        if undefined:
            warnings.warn(
                f"bpref: ranx divides 0 by 0 on {len(undefined)} of {len(qrels)} queries "
                f"{shown_ids(undefined)}: a relevant doc retrieved and no judged non-relevant "
                "one; ranx gives NaN there (or 0.0, by its thread chunks), so its mean is "
                "not comparable; the values here are trec_eval's",
                InputWarning,
                stacklevel=stacklevel + 1,
            )
            return
