"""The normalisation modes against the official scripts' logic (restated offline in
official_qa_scripts.py), and the default mode's promises (docs/semantics.md)."""

from __future__ import annotations

import string
import unicodedata

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ef.evaluation import context_recall, exact_match, token_f1
from ef.evaluation.metrics.normalize import (
    MLQA_LANGS,
    mlqa_normalize,
    squad_normalize,
    unicode_normalize,
)

from ..profiles_hypothesis import examples
from . import official_qa_scripts as official

#: Pieces that exercise every rule: articles of each language, Unicode and ASCII punctuation,
#: whitespace of several kinds, composed and decomposed accents, full-width and compatibility
#: forms, format characters, Chinese, Japanese and Korean, Arabic's al, case oddities.
PIECES = [
    "the", "The", "THE", "a", "an", "A", " ", "  ", "\t", "\n", "\u3000", "\xa0", "\x1c",
    "Paris", "paris", "café", "cafe\u0301", "\u0301", "\uff30\uff41\uff52\uff49\uff53", "ﬁ", "①", "²", "ǅ",
    "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\xad", "\u200e",
    "«", "»", "“", "”", "¿", "¡", "!", "-", ",", ".", "'s", "$", "+", "_", "€", "©", "°",
    "北京", "是", "中国", "的", "首都", "。", "\uff0c", "\u9fa6", "\u3400", "東京", "タワー",
    "ひらがな", "\u3007", "々", "한국", "의",
    "el", "la", "los", "unas", "der", "die", "des", "của", "là", "những", "\u0627\u0644",
    "\u0627\u0644\u0643\u062a\u0627\u0628", "İ", "ß", "ẞ", "Σ", "2008", "年", "x", "y", "e",
]  # fmt: skip

texts = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=3)), max_size=10).map("".join)
gold_lists = st.lists(texts, min_size=1, max_size=3)
ascii_texts = st.lists(
    st.one_of(st.sampled_from(["the", "a", "an", " ", "The", "-", "!"]), st.text(string.printable)),
    max_size=8,
).map("".join)

DIFFERENTIAL = settings(max_examples=examples(400))


@DIFFERENTIAL
@given(texts)
def test_squad_normalisation_is_the_official_one(text: str) -> None:
    assert squad_normalize(text) == official.v1_normalize(text) == official.v2_normalize(text)


@DIFFERENTIAL
@given(texts, gold_lists)
def test_squad_mode_is_the_v1_1_script(response: str, golds: list[str]) -> None:
    em = official.max_over_ground_truths(official.v1_em, response, golds)
    f1 = official.max_over_ground_truths(official.v1_f1, response, golds)
    assert exact_match(response, golds, normalize="squad") == float(em)
    assert token_f1(response, golds, normalize="squad") == f1


@DIFFERENTIAL
@given(texts, gold_lists)
def test_squad_v2_mode_is_the_v2_0_script(response: str, golds: list[str]) -> None:
    em, f1 = official.v2_raw_scores(golds, response)
    assert exact_match(response, golds, normalize="squad_v2") == float(em)
    assert token_f1(response, golds, normalize="squad_v2") == f1


@DIFFERENTIAL
@given(st.sampled_from(MLQA_LANGS), texts, gold_lists)
def test_mlqa_mode_is_the_mlqa_script(lang: str, response: str, golds: list[str]) -> None:
    assert mlqa_normalize(response, lang) == official.mlqa_normalize(response, lang)
    em = official.max_over_ground_truths(lambda p, g: official.mlqa_em(p, g, lang), response, golds)
    f1 = official.max_over_ground_truths(lambda p, g: official.mlqa_f1(p, g, lang), response, golds)
    assert exact_match(response, golds, normalize="mlqa", lang=lang) == float(em)
    assert token_f1(response, golds, normalize="mlqa", lang=lang) == f1


# -- how the default relates to each script (docs/semantics.md says the same) ---------------


@DIFFERENTIAL
@given(ascii_texts, ascii_texts)
def test_the_default_is_squad_v2_on_ascii(response: str, reference: str) -> None:
    # Normalisation is SQuAD's; F1 follows v2.0's rule when a side has no token.
    assert unicode_normalize(response) == official.v1_normalize(response)
    em, f1 = official.v2_raw_scores([reference], response)
    assert exact_match(response, reference) == float(em)
    assert token_f1(response, reference) == f1


def _needs_a_unicode_rule(char: str) -> bool:
    """A character the default treats beyond MLQA: a format character, a CJK one."""
    cjk = unicodedata.name(char, "").startswith(("CJK", "HIRAGANA", "KATAKANA", "IDEOGRAPHIC"))
    return cjk or unicodedata.category(char) == "Cf"


@DIFFERENTIAL
@given(texts)
def test_the_default_is_mlqa_english_on_text_needing_no_unicode_rule(text: str) -> None:
    assume(unicodedata.is_normalized("NFKC", text))
    assume(not any(_needs_a_unicode_rule(c) for c in text))
    assert unicode_normalize(text) == official.mlqa_normalize(text, "en")


@DIFFERENTIAL
@given(texts)
def test_composed_and_decomposed_text_agree(text: str) -> None:
    nfc, nfd = unicodedata.normalize("NFC", text), unicodedata.normalize("NFD", text)
    assert unicode_normalize(nfc) == unicode_normalize(nfd)
    assert exact_match(nfc, nfd) == 1.0


@DIFFERENTIAL
@given(st.text(string.printable))
def test_full_width_text_is_its_ascii(text: str) -> None:
    wide = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)
    assert unicode_normalize(wide) == unicode_normalize(text)


@DIFFERENTIAL
@given(texts, st.lists(st.sampled_from(["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\xad"])))
def test_format_characters_change_nothing(text: str, inserted: list[str]) -> None:
    spaced = text
    for position, char in enumerate(inserted):
        at = (position * 7) % (len(spaced) + 1)
        spaced = spaced[:at] + char + spaced[at:]
    assert unicode_normalize(spaced) == unicode_normalize(text)


# -- hand cases: each mode's number, and the restated script's --------------------------------

CAFE_NFC, CAFE_NFD = "Caf\u00e9", "Cafe\u0301"
FULL_WIDTH_PARIS = "\uff30\uff21\uff32\uff29\uff33"


@pytest.mark.parametrize(
    ("response", "reference", "mode", "em", "f1"),
    [
        # The example: SQuAD keeps « and », the default removes them.
        ("«The Eiffel Tower!»", "eiffel tower", "squad", 0.0, 0.4),
        ("«The Eiffel Tower!»", "eiffel tower", "squad_v2", 0.0, 0.4),
        ("«The Eiffel Tower!»", "eiffel tower", "unicode", 1.0, 1.0),
        ("«The Eiffel Tower!»", "eiffel tower", "mlqa", 1.0, 1.0),
        # Both sides normalise to nothing: EM agrees, F1 follows each script's rule.
        ("the", "a", "squad", 1.0, 0.0),
        ("the", "a", "squad_v2", 1.0, 1.0),
        ("the", "a", "unicode", 1.0, 1.0),
        ("the", "a", "mlqa", 1.0, 0.0),
        ("", "", "squad", 1.0, 0.0),
        ("", "", "squad_v2", 1.0, 1.0),
        # Composed and decomposed accents, full width, zero width: the default only.
        (CAFE_NFC, CAFE_NFD, "squad", 0.0, 0.0),
        (CAFE_NFC, CAFE_NFD, "unicode", 1.0, 1.0),
        (FULL_WIDTH_PARIS, "Paris", "squad", 0.0, 0.0),
        (FULL_WIDTH_PARIS, "Paris", "unicode", 1.0, 1.0),
        ("Pa\u200bris", "Paris", "squad", 0.0, 0.0),
        ("Pa\u200bris", "Paris", "unicode", 1.0, 1.0),
        # Chinese: one token for SQuAD; a character each for MLQA's zh and the default.
        ("北京是中国的首都", "北京", "squad", 0.0, 0.0),
        ("北京是中国的首都", "北京", "unicode", 0.0, 0.4),
    ],
)
def test_hand_cases(response: str, reference: str, mode: str, em: float, f1: float) -> None:
    lang = "en" if mode == "mlqa" else None
    assert exact_match(response, reference, normalize=mode, lang=lang) == em
    assert token_f1(response, reference, normalize=mode, lang=lang) == pytest.approx(f1)
    if mode == "squad":
        assert float(official.v1_em(response, reference)) == em
        assert official.v1_f1(response, reference) == pytest.approx(f1)
    if mode == "squad_v2":
        official_em, official_f1 = official.v2_raw_scores([reference], response)
        assert official_em == em
        assert official_f1 == pytest.approx(f1)


def test_chinese_under_mlqa_zh_is_segmented_by_character() -> None:
    assert token_f1("北京是中国的首都", "北京", normalize="mlqa", lang="zh") == pytest.approx(0.4)
    assert official.mlqa_f1("北京是中国的首都", "北京", "zh") == pytest.approx(0.4)
    assert token_f1("北京是中国的首都", "北京", normalize="mlqa", lang="en") == 0.0


def test_japanese_kana_and_kanji_are_tokens_of_their_own() -> None:
    assert unicode_normalize("東京タワーは2008年") == "東 京 タ ワ ー は 2008 年"
    assert token_f1("東京タワー", "東京") == pytest.approx(2 * (2 / 5) / (2 / 5 + 1))


def test_context_recall_finds_chinese_inside_a_passage() -> None:
    assert context_recall("北京", ["北京是中国的首都"]) == 1.0
    assert context_recall("北京", ["北京是中国的首都"], normalize="squad") == 0.0


def test_mlqa_arabic_removes_every_al() -> None:
    # MLQA's pattern (whitespace, al, ^) or al: the first branch never matches, so every al
    # goes, inside words too.
    text = "\u0627\u0644\u0643\u062a\u0627\u0628 \u0627\u0644\u062c\u062f\u064a\u062f"
    assert mlqa_normalize(text, "ar") == official.mlqa_normalize(text, "ar")
    assert (
        mlqa_normalize("\u0627\u0644\u0643\u062a\u0627\u0628", "ar") == "\u0643\u062a\u0627\u0628"
    )


def test_mlqa_segments_only_its_own_han_range() -> None:
    # U+9FA6 is a CJK ideograph beyond MLQA's \u4e00-\u9fa5: MLQA keeps it joined, the
    # default splits it off.
    text = "北\u9fa6\u9fa6京"
    assert mlqa_normalize(text, "zh") == official.mlqa_normalize(text, "zh") == "北 \u9fa6\u9fa6 京"
    assert unicode_normalize(text) == "北 \u9fa6 \u9fa6 京"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"normalize": "squad1"}, r"unknown normalisation 'squad1'; the modes are unicode, squad"),
        ({"normalize": "mlqa"}, r"normalize='mlqa' needs lang=, one of en, es, hi, vi, de, ar, zh"),
        ({"normalize": "mlqa", "lang": "fr"}, r"needs lang=, one of .*; got lang='fr'"),
        ({"normalize": "squad", "lang": "zh"}, r"lang= applies to normalize='mlqa' only"),
    ],
)
def test_bad_modes_say_what_is_valid(kwargs: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        token_f1("a", "b", **kwargs)
