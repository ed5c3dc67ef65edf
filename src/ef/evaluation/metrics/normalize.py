"""Answer normalisation: how a text becomes the string and the tokens that EM and F1 compare.

Four named modes (:data:`NORMALIZE_MODES`), each a pure function of the text:

* ``unicode`` (the default, :func:`unicode_normalize`): NFKC, lower-case, no format
  characters (zero-width spaces and joiners, the soft hyphen, bidi marks), no Unicode
  punctuation, no English articles, and every CJK character a token of its own;
* ``squad`` and ``squad_v2`` (:func:`squad_normalize`): the official SQuAD v1.1 and v2.0
  scripts, whose ``normalize_answer`` is the same function (their F1 differs:
  :mod:`ef.evaluation.metrics.lexical`);
* ``mlqa`` (:func:`mlqa_normalize`): the official MLQA script, for one of
  :data:`MLQA_LANGS`.

A token is a whitespace-separated word of the normalised string in every mode.
:class:`Normalization` is a mode with its language, checked.
"""

from __future__ import annotations

import functools
import re
import string
import unicodedata
from collections.abc import Callable

import attrs

__all__ = [
    "MLQA_LANGS",
    "NORMALIZE_MODES",
    "Normalization",
    "mlqa_normalize",
    "squad_normalize",
    "unicode_normalize",
]

#: The normalisation modes, the default first.
NORMALIZE_MODES = ("unicode", "squad", "squad_v2", "mlqa")

#: The answer languages of the MLQA script (``WHITESPACE_LANGS`` and ``MIXED_SEGMENTATION_LANGS``).
MLQA_LANGS = ("en", "es", "hi", "vi", "de", "ar", "zh")

#: MLQA's articles per language, as patterns; Hindi and Chinese have none. Its Arabic pattern
#: is "whitespace, al, ^" or "al" (al: U+0627 U+0644); the first branch can never match (``^``
#: after a character, without MULTILINE), so every al is removed, wherever it stands.
_MLQA_ARTICLES: dict[str, str | None] = {
    "en": r"\b(a|an|the)\b",
    "es": r"\b(un|una|unos|unas|el|la|los|las)\b",
    "hi": None,
    "vi": r"\b(của|là|cái|chiếc|những)\b",
    "de": r"\b(ein|eine|einen|einem|eines|einer|der|die|das|den|dem|des)\b",
    "ar": "ال",
    "zh": None,
}

#: MLQA's mixed segmentation of Chinese splits off each character of this range, no wider.
_MLQA_HAN = "([\u4e00-\u9fa5])"


@functools.cache
def _pattern(pattern: str) -> re.Pattern[str]:
    """``pattern`` compiled once, when first used: compiling this module's Unicode patterns
    at import took 5 to 9 ms of every command's start, RAG or not."""
    return re.compile(pattern)


_ASCII_PUNCTUATION = str.maketrans("", "", string.punctuation)


class _LazyTable(dict[int, "int | str | None"]):
    """A ``str.translate`` table filled per code point on first sight by ``rule``.

    Classifying all 1.1M code points up front costs about 0.4 s; text only ever uses a few
    hundred distinct ones.
    """

    def __init__(self, rule: Callable[[str], str | None]) -> None:
        super().__init__()
        self._rule = rule

    def __missing__(self, codepoint: int) -> int | str | None:
        char = chr(codepoint)
        replaced = self._rule(char)
        self[codepoint] = codepoint if replaced == char else replaced
        return self[codepoint]


def _is_punctuation(char: str) -> bool:
    # MLQA's PUNCT: the Unicode punctuation categories and ASCII's string.punctuation, which
    # adds the symbols $ + < = > ^ ` | ~.
    return char in string.punctuation or unicodedata.category(char).startswith("P")


def _mlqa_rule(char: str) -> str | None:
    return None if _is_punctuation(char) else char


#: Unicode names of the characters written without spaces between words: the CJK ideographs
#: (``CJK UNIFIED IDEOGRAPH-4E00``, ...: the names are derived, so every extension is
#: covered), kana, and the ideographic iteration marks and number zero (U+3005, U+3007).
_CJK_NAMES = ("CJK ", "HIRAGANA ", "KATAKANA ", "KATAKANA-HIRAGANA ", "IDEOGRAPHIC ")


def _is_cjk(char: str) -> bool:
    category = unicodedata.category(char)
    return category[0] in "LN" and unicodedata.name(char, "").startswith(_CJK_NAMES)


def _format_rule(char: str) -> str | None:
    # The invisible format characters: U+200B zero-width space, U+200C/D joiners, U+2060,
    # U+FEFF, U+00AD soft hyphen, the bidi marks...; NFKC keeps them.
    return None if unicodedata.category(char) == "Cf" else char


def _unicode_rule(char: str) -> str | None:
    if _is_punctuation(char) or unicodedata.category(char) == "Cf":
        return None
    if _is_cjk(char):
        return f" {char} "  # a token of its own, as MLQA's mixed segmentation makes it
    return char


_MLQA_TABLE = _LazyTable(_mlqa_rule)
_FORMAT_TABLE = _LazyTable(_format_rule)
_UNICODE_TABLE = _LazyTable(_unicode_rule)


def squad_normalize(text: str) -> str:
    """The official SQuAD script's ``normalize_answer`` (v1.1, and v2.0, which is the same).

    Lower-case, delete the ASCII punctuation of ``string.punctuation`` (only that: « » and
    “ ” stay), replace the whole words ``a``, ``an``, ``the`` with a space, and fold
    whitespace. Source: ``evaluate-v1.1.py`` and ``evaluate-v2.0.py`` of
    https://rajpurkar.github.io/SQuAD-explorer/ (also HF evaluate's ``metrics/squad``).

    >>> squad_normalize("«The Eiffel Tower!»")
    '« eiffel tower»'
    >>> squad_normalize("The  Eiffel-Tower!")
    'eiffeltower'
    """
    text = text.lower().translate(_ASCII_PUNCTUATION)
    return " ".join(_pattern(_MLQA_ARTICLES["en"]).sub(" ", text).split())


def mlqa_normalize(text: str, lang: str) -> str:
    """The official MLQA script's ``normalize_answer`` for the answer language ``lang``.

    Lower-case, delete every Unicode punctuation character and every ASCII
    ``string.punctuation`` one, remove the language's articles (none for ``hi`` and ``zh``),
    then split on whitespace, and for ``zh`` also around every character of U+4E00..U+9FA5
    (MLQA's mixed segmentation), and join the tokens with single spaces. Source:
    ``mlqa_evaluation_v1.py`` of https://github.com/facebookresearch/MLQA.

    >>> mlqa_normalize("北京是中国的首都。", "zh")
    '北 京 是 中 国 的 首 都'
    >>> mlqa_normalize("¿Dónde está la estación?", "es")
    'dónde está estación'
    """
    if lang not in _MLQA_ARTICLES:
        raise ValueError(f"MLQA has no language {lang!r}; its languages: {', '.join(MLQA_LANGS)}")
    text = text.lower().translate(_MLQA_TABLE)
    articles = _MLQA_ARTICLES[lang]
    if articles is not None:
        text = _pattern(articles).sub(" ", text)
    if lang == "zh":
        text = _pattern(_MLQA_HAN).sub(r" \1 ", text)
    return " ".join(text.split())


def unicode_normalize(text: str) -> str:
    """ef's default normalisation: SQuAD's, made fit for any Unicode text.

    In order: delete the format characters (category ``Cf``: zero-width space, joiners and
    no-break space, soft hyphen, bidi marks), NFKC (composed and decomposed accents agree,
    full-width letters become ASCII), lower-case, delete punctuation as MLQA does (every
    Unicode ``P*`` character and ASCII's ``string.punctuation``), make every CJK character
    (ideographs, kana) a token of its own, remove the English articles ``a``, ``an``,
    ``the`` as whole words, and fold whitespace. On ASCII text this is exactly
    :func:`squad_normalize`.

    >>> unicode_normalize("«The Eiffel Tower!»")
    'eiffel tower'
    >>> unicode_normalize("\\uff23\\uff41fe\\u0301 de\\u200bluxe")  # full width, NFD, ZWSP
    'café deluxe'
    >>> unicode_normalize("北京是中国的首都")
    '北 京 是 中 国 的 首 都'
    """
    # Format characters go first, so that NFKC composes across them (e + U+200D + U+0301).
    # ASCII has neither format characters nor anything NFKC changes: skip both there.
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text.translate(_FORMAT_TABLE))
    text = text.lower().translate(_UNICODE_TABLE)
    return " ".join(_pattern(_MLQA_ARTICLES["en"]).sub(" ", text).split())


def _check_mode(instance: Normalization, attribute: attrs.Attribute[str], value: str) -> None:
    if value not in NORMALIZE_MODES:
        raise ValueError(
            f"unknown normalisation {value!r}; the modes are {', '.join(NORMALIZE_MODES)}"
        )


def _check_lang(
    instance: Normalization, attribute: attrs.Attribute[str | None], value: str | None
) -> None:
    if instance.mode != "mlqa":
        if value is not None:
            raise ValueError(
                f"lang= applies to normalize='mlqa' only, not to {instance.mode!r}; "
                f"drop lang={value!r} or write normalize='mlqa'"
            )
        return
    if value not in MLQA_LANGS:
        given = "no lang=" if value is None else f"lang={value!r}"
        raise ValueError(
            f"normalize='mlqa' needs lang=, one of {', '.join(MLQA_LANGS)} (the MLQA script's "
            f"answer languages); got {given}"
        )


@attrs.frozen
class Normalization:
    """A normalisation mode with its language: what turns an answer into tokens.

    ``lang`` is MLQA's answer language and goes with ``mode="mlqa"`` only, which needs it.

    >>> Normalization("mlqa", "zh").tokens("北京 Beijing!")
    ['北', '京', 'beijing']
    >>> Normalization("squad").tokens("«The Eiffel Tower!»")
    ['«', 'eiffel', 'tower»']
    >>> Normalization("mlqa")
    Traceback (most recent call last):
        ...
    ValueError: normalize='mlqa' needs lang=, one of en, es, hi, vi, de, ar, zh (the MLQA \
script's answer languages); got no lang=
    """

    mode: str = attrs.field(default="unicode", validator=_check_mode)
    lang: str | None = attrs.field(default=None, validator=_check_lang)

    def __call__(self, text: str) -> str:
        """``text`` normalised in this mode."""
        if self.mode == "unicode":
            return unicode_normalize(text)
        if self.mode == "mlqa":
            return mlqa_normalize(text, str(self.lang))
        return squad_normalize(text)

    def tokens(self, text: str) -> list[str]:
        """The tokens of ``text``: the words of its normalised form."""
        return self(text).split()
