"""The check that a run's doc ids are the qrels' (issue 25), on every path that scores a run.

Query ids that differ in form stop an evaluation (:func:`~ef.evaluation._evaluate.inputs.
check_overlap`); doc ids that do (``cacm-1938`` against ``CACM-1938``) would score 0 on every
query with no word. :func:`check_doc_overlap` judges the
:class:`~ef.evaluation._engine.doc_overlap.DocOverlap` of a run, counted before scoring for a
run in memory (:func:`check_docs_meet`), and batch by batch, shard by shard, for a run read
in parts (:mod:`~ef.evaluation._evaluate.streamed`, :mod:`~ef.evaluation._evaluate.sharded`),
before any report is made:

* no scored query has a judged doc (of any grade) anywhere in its ranking, or a tenth of
  them or more would have one only once the ids are normalised (case, whitespace, leading
  zeros, an int against a str): a ``ValueError`` with a few ids of each side and the likely
  cause;
* fewer than half of the scored queries have one: an :class:`~ef.evaluation.InputWarning`
  with the share. Sparse qrels are normal: 97% of the queries of a BM25 run on SciFact have
  one in their top 1,000, although 9% of its top-10 docs are judged.

``check_doc_ids=False`` (``ef-eval evaluate --no-check-doc-ids``) leaves them unchecked;
``check_doc_ids="warn"`` scores them as they are with an :class:`~ef.evaluation.InputWarning`
in place of each refusal (the compat shims' way: their tools score such docs 0).

:func:`~ef.evaluation.evaluate_run`'s docstring shows the refusal of ids that differ in
case; here, in leading zeros:

>>> check_docs_meet({"q1": ["0042"]}, {"q1": {"42": 1}}, "qrels", stacklevel=1)
Traceback (most recent call last):
    ...
ValueError: no scored query retrieves a judged doc: none of the 1 queries of the run that \
qrels judges has a judged doc anywhere in its ranking, so each would score 0. Query 'q1' \
retrieves ('0042'), qrels judges ('42'); likely cause: the ids differ in leading zeros \
('0042' and '42'). Nothing was scored: spell the run's doc ids as the qrels' do, or pass \
check_doc_ids=False (ef-eval evaluate --no-check-doc-ids) to score them as they are
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from .._engine.doc_overlap import DocOverlap, Look, doc_overlap, worth_looking
from .._engine.id_forms import no_overlap_cause, shown_ids, with_cause
from .._engine.scoring import query_sets
from .._runs.ranked import RankedLists
from ..errors import InputWarning

if TYPE_CHECKING:
    from .._runs.ranked import RankedRun
    from ..types import Qrels

__all__ = ["check_doc_overlap", "check_docs_meet"]

_NAMES = ("run", "qrels")
_FIX = (
    "Nothing was scored: spell the run's doc ids as the qrels' do, or pass check_doc_ids=False "
    "(ef-eval evaluate --no-check-doc-ids) to score them as they are"
)
_FIX_EMPTY = (
    "Nothing was scored: is it the run you meant? check_doc_ids=False (ef-eval evaluate "
    "--no-check-doc-ids) scores it as it is"
)
#: In place of _FIX where a refusal is a warning (check_doc_ids="warn").
_SCORED = "They are scored as they are: is that what you meant?"


def check_docs_meet(
    run: RankedRun | Mapping[str, Sequence[str]],
    qrels: Qrels,
    averaging: str,
    *,
    stacklevel: int,
    unavailable: Mapping[str, str] | None = None,
    refuse: bool = True,
) -> None:
    """:func:`check_doc_overlap` of ``run`` (a run value, or ranked lists) against the
    queries of ``qrels`` that ``averaging`` scores (``unavailable`` ones passed over, as
    scoring skips them); a warning points ``stacklevel`` frames above this function (1: its
    caller)."""
    ranked = RankedLists(run, checked=True) if isinstance(run, Mapping) else run
    scored = query_sets(ranked, qrels, averaging, unavailable)[0]
    overlap = doc_overlap(ranked, qrels, scored, whole=True)
    check_doc_overlap(overlap, stacklevel=stacklevel + 1, refuse=refuse)


def check_doc_overlap(overlap: DocOverlap, *, stacklevel: int, refuse: bool = True) -> None:
    """Refuse a run whose docs do not meet the judged docs of its scored queries; warn if
    fewer than half of them do (from ``stacklevel`` frames above this function). With
    ``refuse=False`` a refusal is a warning too, and the run is scored as it is."""
    if not overlap.scored:
        return  # no query to score: the query checks and the scoring rules say so
    unmet = overlap.scored - overlap.met
    # Below a tenth of the scored queries without a judged doc, neither refusal nor the
    # warning can be said (each needs unmet >= scored / 10): respelt docs are not looked for.
    needed = worth_looking(overlap.scored, overlap.met)
    respelt = [look for look in overlap.looked if needed and look.respelt is not None]
    refusal, fix = None, _FIX
    if not overlap.met and not any(look.docs for look in overlap.looked):
        refusal, fix = _all_empty(overlap), _FIX_EMPTY
    elif not overlap.met:
        refusal = _none_met(overlap, respelt)
    # A tenth of the scored queries or more (estimated from those looked at) meet the qrels
    # only once respelt: the ids differ in form, not just the queries' luck.
    elif respelt and 10 * len(respelt) * unmet >= overlap.scored * len(overlap.looked):
        refusal = _respelt_message(overlap, respelt)
    if refusal is not None:
        if refuse:
            raise ValueError(f"{refusal}. {fix}")
        warnings.warn(f"{refusal}. {_SCORED}", InputWarning, stacklevel=stacklevel + 1)
        return
    if 2 * overlap.met < overlap.scored:
        message = (
            f"only {overlap.met} of the {overlap.scored} scored queries "
            f"({overlap.met / overlap.scored:.0%}) have a judged doc anywhere in the run's "
            f"ranking; the {unmet} others, e.g. "
            f"{shown_ids(look.query_id for look in overlap.looked)}, score 0: "
        )
        cause = _cause(overlap.looked, respelt)
        if cause is not None:
            message += f"some of their ids may differ from the qrels' ({cause}); "
        warnings.warn(
            message + "are the run's doc ids those of the qrels?",
            InputWarning,
            stacklevel=stacklevel + 1,
        )


def _cause(looked: Sequence[Look], respelt: Sequence[Look]) -> str | None:
    """The likely cause: that of a doc respelt (the pair shows it), or of the ids of every
    query looked at, taken together."""
    if respelt:
        doc, judged = respelt[0].respelt  # type: ignore[misc]  # respelt: not None
        return no_overlap_cause([doc], [judged], _NAMES, "doc ids")
    docs = [doc for look in looked for doc in look.docs]
    judged_docs = [doc for look in looked for doc in look.judged]
    return no_overlap_cause(docs, judged_docs, _NAMES, "doc ids")


def _all_empty(overlap: DocOverlap) -> str:
    return (
        f"the run's rankings are empty: none of the {overlap.scored} queries of the run that "
        f"qrels judges retrieves a doc (e.g. {shown_ids(look.query_id for look in overlap.looked)}"
        "), so each would score 0"
    )


def _none_met(overlap: DocOverlap, respelt: Sequence[Look]) -> str:
    first = respelt[0] if respelt else overlap.looked[0]
    message = (
        "no scored query retrieves a judged doc: none of the "
        f"{overlap.scored} queries of the run that qrels judges has a judged doc anywhere in "
        f"its ranking, so each would score 0. Query {first.query_id!r} retrieves "
        f"{shown_ids(first.docs) if first.docs else 'no doc'}, qrels judges "
        f"{shown_ids(first.judged)}"
    )
    return with_cause(message, _cause(overlap.looked, respelt))


def _respelt_message(overlap: DocOverlap, respelt: Sequence[Look]) -> str:
    first = respelt[0]
    doc, judged = first.respelt  # type: ignore[misc]  # respelt: not None
    unmet = overlap.scored - overlap.met
    return (
        f"the run's doc ids match the qrels' only once respelt: of the {unmet} scored queries "
        f"(of {overlap.scored}) with no judged doc in their ranking, {len(respelt)} of the "
        f"{len(overlap.looked)} looked at retrieve a judged doc spelled otherwise (query "
        f"{first.query_id!r} retrieves {doc!r}, qrels judges {judged!r}); likely cause: "
        f"{_cause(overlap.looked, respelt)}"
    )
