"""The numpy reader's score parse (``_formats/trec/decimals.py``) equals ``float()``, bit for
bit, on every column of score texts, and refuses a column exactly where ``float()`` refuses
one of its texts (or where a text holds a byte that no plain score holds)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ef.evaluation._formats.trec.decimals import parse_scores

from ..profiles_hypothesis import examples

_PLAIN = b"0123456789.eE+-"


def _oracle(texts: list[bytes]) -> list[float] | None:
    """float() of each text; None if one fails or holds another byte than a plain score's."""
    if any(byte not in _PLAIN for text in texts for byte in text):
        return None
    try:
        return [float(text) for text in texts]
    except ValueError:
        return None


def _check(texts: list[bytes]) -> None:
    expected = _oracle(texts)
    got = parse_scores(np.array(texts, dtype=bytes))
    if expected is None:
        assert got is None
        return
    assert got is not None
    # Bit for bit: -0.0 is not 0.0 here.
    assert got.view(np.uint64).tolist() == np.array(expected).view(np.uint64).tolist()


def _decimal(sign: str, whole: str, dot: bool, fraction: str, exponent: str) -> bytes:
    return f"{sign}{whole}{'.' if dot else ''}{fraction}{exponent}".encode()


decimals = st.builds(
    _decimal,
    st.sampled_from(["", "", "-", "+"]),
    st.text("0123456789", max_size=18),
    st.booleans(),
    st.text("0123456789", max_size=26),
    st.sampled_from(["", "", "", "e5", "E-3", "e+300", "e999", "e"]),
)
formatted = (
    st.floats(allow_nan=False, allow_infinity=False)
    .flatmap(lambda x: st.sampled_from([repr(x), f"{x:.6f}", f"{x:.17g}", f"{x:.3e}", f"{x:.25f}"]))
    .map(str.encode)
)
anything = st.binary(max_size=12) | st.text(_PLAIN.decode(), max_size=12).map(str.encode)


@example([b"12.5", b"-0.25", b"3", b"5."])
@example([b"-0", b"+0.0", b".5"])  # -0.0 keeps its sign
@example([b"1.2.3"])  # two dots
@example([b"-"])  # a sign alone
@example([b"1-2"])  # a sign inside
@example([b"1e"])  # an exponent without digits: numpy's parse refuses it
@example([b"9007199254740993.0"])  # 2**53 + 1: two roundings would give 2**53
@example([b"0.00000000000000000000001"])  # 10**-23: 10**23 is no double
@example([b"123456789012345678901234"])  # more digits than a 64-bit integer holds
@example([b"1_0"])  # float() takes it; a run's score has no underscore
@example([b"nan", b"1"])
@settings(max_examples=examples(500))
@given(st.lists(decimals | formatted | anything, min_size=1, max_size=8))
def test_the_parse_equals_float(texts: list[bytes]) -> None:
    _check(texts)


@pytest.mark.parametrize("width", [64, 65, 200])
def test_wide_scores_equal_float(width: int) -> None:
    # Columns wider than the byte-at-a-time loop takes go to numpy's parse.
    _check([b"1." + b"5" * (width - 2), b"2.25"])
