"""Significance: how :func:`~ef.evaluation.compare` tests, as one value.

The test, the multiple-comparison correction, the level ``alpha``, the resamples of the
resampling tests and their seed travel together from ``compare``'s keywords, ``Experiment``
and the CLI's ``--test``, ``--correction``, ``--alpha``, ``--n-resamples`` and ``--seed`` to
the tests. The value checks them once, each with the message ``compare`` gives.

>>> Significance(test="wilcoxon", correction="holm")
Significance(test='wilcoxon', correction='holm', alpha=0.05, n_resamples=10000, seed=None)
>>> Significance(alpha=1.5)
Traceback (most recent call last):
    ...
ValueError: alpha must be a number between 0 and 1, got 1.5
>>> Significance(test="tukey", correction="bh")
Traceback (most recent call last):
    ...
ef.evaluation.errors.ArgumentError: test='tukey' adjusts its p-values over the pairs of \
systems itself: it takes no correction, got correction='bh' (give correction=None)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, get_args

import attrs

from ..errors import ArgumentError, Keyword
from ..types import Correction, PairedTest, SignificanceTest

__all__ = ["CORRECTIONS", "PAIRED_TESTS", "TESTS", "Significance"]

#: The paired tests, as the runtime list of :data:`~ef.evaluation.types.PairedTest`.
PAIRED_TESTS: tuple[str, ...] = get_args(PairedTest)
#: Every test compare() runs: the paired ones, and Tukey's HSD, which adjusts its own
#: p-values over all pairs of systems and so takes no correction.
TESTS: tuple[str, ...] = get_args(SignificanceTest)
#: The multiple-comparison corrections (``None`` for none).
CORRECTIONS: tuple[str, ...] = get_args(Correction)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _known_test(_: object, __: object, test: object) -> None:
    if test not in TESTS:
        raise ValueError(f"test must be one of {', '.join(TESTS)}, got {test!r}")


def _known_correction(instance: Significance, _: object, correction: object) -> None:
    """A known correction, or none where the test (Tukey's) adjusts its own p-values."""
    if instance.test == "tukey" and correction is not None:
        raise ArgumentError(
            Keyword("test", "tukey"),
            " adjusts its p-values over the pairs of systems itself: it takes no correction, got ",
            Keyword("correction", correction),
            " (give ",
            Keyword("correction", None),
            ")",
        )
    if correction is not None and correction not in CORRECTIONS:
        raise ValueError(
            f"correction must be None or one of {', '.join(CORRECTIONS)}, got {correction!r}"
        )


def _must(valid: Callable[[Any], bool], what: str) -> Callable[[Any, Any, Any], None]:
    """A validator: ``valid(value)``, else a ValueError that says the value must be ``what``."""

    def check(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if not valid(value):
            raise ValueError(f"{attribute.name} must be {what}, got {value!r}")

    return check


@attrs.frozen(kw_only=True)
class Significance:
    """How systems are tested against each other: :func:`~ef.evaluation.compare`'s ``test``,
    ``correction``, ``alpha``, ``n_resamples`` and ``seed``, with its defaults and its
    checks (in its order: the test, the correction, then the numbers). ``seed=None`` is
    drawn afresh where the tests run."""

    test: SignificanceTest = attrs.field(default="paired-t", validator=_known_test)
    correction: Correction | None = attrs.field(default=None, validator=_known_correction)
    alpha: float = attrs.field(
        default=0.05,
        validator=_must(
            lambda v: not isinstance(v, bool) and isinstance(v, (int, float)) and 0 < v < 1,
            "a number between 0 and 1",
        ),
    )
    n_resamples: int = attrs.field(
        default=10_000, validator=_must(lambda v: _is_int(v) and v >= 1, "a positive int")
    )
    seed: int | None = attrs.field(
        default=None,
        validator=_must(
            lambda v: v is None or (_is_int(v) and v >= 0), "None or a non-negative int"
        ),
    )

    @classmethod
    def of(cls, holder: object) -> Significance:
        """The options ``holder`` keeps as attributes of these names (an ``Experiment``'s).

        >>> from types import SimpleNamespace
        >>> Significance.of(SimpleNamespace(test="wilcoxon", correction=None, alpha=0.01,
        ...                                 n_resamples=500, seed=3)).alpha
        0.01
        """
        return cls(**{field.name: getattr(holder, field.name) for field in attrs.fields(cls)})
