"""How two sets of ids that should meet differ in form: the likely cause a refusal names.

A run's query ids against the qrels' (:func:`~ef.evaluation._evaluate.inputs.check_overlap`,
``ef-trec-eval``), its doc ids against the judged ones
(:mod:`~ef.evaluation._evaluate.doc_ids`): when they do not meet, :func:`no_overlap_cause`
says why if it can tell (int against str, case, whitespace, leading zeros, a prefix or a
suffix), and :func:`shown_ids` shows a few of each side.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from .doc_overlap import FOLDS

__all__ = ["no_overlap_cause", "shown_ids", "with_cause"]

_SHOWN = 3  # ids shown of each side


def shown_ids(ids: Iterable[object]) -> str:
    """A few of ``ids``, sorted as text, for a message.

    >>> shown_ids(["q3", "q1"]), shown_ids(range(5))
    ("('q1', 'q3')", '(0, 1, 2, ...)')
    """
    ordered = sorted(ids, key=str)
    text = ", ".join(repr(i) for i in ordered[:_SHOWN])
    return f"({text}, ...)" if len(ordered) > _SHOWN else f"({text})"


def with_cause(message: str, cause: str | None) -> str:
    """``message``, and the likely cause where :func:`no_overlap_cause` found one.

    >>> with_cause("no query in common", "the ids differ in case ('Q1' and 'q1')")
    "no query in common; likely cause: the ids differ in case ('Q1' and 'q1')"
    >>> with_cause("no query in common", None)
    'no query in common'
    """
    return message if cause is None else f"{message}; likely cause: {cause}"


def _common_prefix(texts: Sequence[str]) -> str:
    """The characters every text starts with (the first and last in order bound them)."""
    if not texts:
        return ""
    first, last = min(texts), max(texts)
    n = 0
    while n < min(len(first), len(last)) and first[n] == last[n]:
        n += 1
    return first[:n]


def _reversed(text: str) -> str:
    return text[::-1]


def _same(text: str) -> str:
    return text


def _strip_affix(
    side: Sequence[str], other: Collection[str], *, suffix: bool
) -> tuple[str, int] | None:
    """The prefix (or suffix) common to every id of ``side`` whose removal matches the most
    ids of ``other``, and how many it matches."""
    flip = _reversed if suffix else _same
    common = flip(_common_prefix([flip(s) for s in side]))
    best: tuple[str, int] | None = None
    for n in range(len(common), 0, -1):
        affix = common[-n:] if suffix else common[:n]
        cut = {s[:-n] if suffix else s[n:] for s in side}
        matched = len(cut & set(other))
        if matched and (best is None or matched >= best[1]):
            best = (affix, matched)
    return best


def no_overlap_cause(
    side: Collection[object],
    judged: Collection[object],
    names: tuple[str, str],
    what: str = "query ids",
) -> str | None:
    """Why ids of ``side`` (e.g. the run's) match none of ``judged``, if one can tell.

    ``names`` are the two sides' names as used in the message, e.g. ``("run", "qrels")``;
    ``what`` the ids are: ``"query ids"`` or ``"doc ids"``.

    >>> no_overlap_cause(["Q1", "Q2"], ["1", "2"], ("run", "qrels"))
    "every run id starts with 'Q', which qrels' ids lack"
    >>> no_overlap_cause(["001"], ["1"], ("run", "qrels"))
    "the ids differ in leading zeros ('001' and '1')"
    >>> no_overlap_cause([1938], ["1938"], ("run", "qrels"), "doc ids")
    "the run's doc ids are int, qrels' are str: use str ids on both sides"
    """
    cause = _type_cause(side, judged, names, what)
    if cause is not None:
        return cause
    b = [str(i) for i in judged]
    known = set(b)
    a = [str(i) for i in side if str(i) not in known]  # the ones that match are no clue
    return _fold_cause(a, b) or _affix_cause(a, b, names)


def _type_cause(
    side: Collection[object], judged: Collection[object], names: tuple[str, str], what: str
) -> str | None:
    """The two sides' ids are of different types (int and str)."""
    mine, theirs = names
    types_a = {type(i).__name__ for i in side}
    types_b = {type(i).__name__ for i in judged}
    if types_a and types_b and types_a.isdisjoint(types_b):
        shown = "/".join(sorted(types_a)), "/".join(sorted(types_b))
        return (
            f"the {mine}'s {what} are {shown[0]}, {theirs}' are {shown[1]}: "
            "use str ids on both sides"
        )
    return None


def _fold_cause(a: list[str], b: list[str]) -> str | None:
    """An id of ``a`` is one of ``b`` but for a difference :data:`FOLDS` folds away."""
    for difference, fold in FOLDS:
        folded_b = {fold(s): s for s in b}
        for s in sorted(a):
            if fold(s) in folded_b:
                return f"the ids differ in {difference} ({s!r} and {folded_b[fold(s)]!r})"
    return None


def _affix_cause(a: list[str], b: list[str], names: tuple[str, str]) -> str | None:
    """Every id of one side starts (or ends) with what the other side's ids lack."""
    mine, theirs = names
    for suffix, verb in ((False, "starts"), (True, "ends")):
        for ids, other, who, lacking in ((a, b, mine, theirs), (b, a, theirs, mine)):
            found = _strip_affix(ids, other, suffix=suffix)
            if found is not None:
                return f"every {who} id {verb} with {found[0]!r}, which {lacking}' ids lack"
    return None
