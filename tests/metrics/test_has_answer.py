"""has_answer@k against a restatement of Pyserini's DPR retrieval evaluation.

The restatement below follows, step by step, ``has_answers``, ``regex_match``,
``SimpleTokenizer`` and ``evaluate_retrieval`` of
https://github.com/castorini/pyserini/blob/master/pyserini/eval/evaluate_dpr_retrieval.py
(the same string matching as https://github.com/castorini/pyserini/blob/master/scripts/dpr/evaluate.py
and as ``has_answer`` in https://github.com/facebookresearch/DPR/blob/main/dpr/data/qa_validation.py):

* the tokenizer is DrQA's: ``regex`` finds ``([\\p{L}\\p{N}\\p{M}]+)|([^\\p{Z}\\p{C}])`` with
  IGNORECASE, UNICODE and MULTILINE, and ``words(uncased=True)`` lower-cases each match;
* ``string`` matching: the context and each answer are put in NFD and tokenized, and an
  answer is found when its word list equals a window of the context's, slid over every start;
* ``regex`` matching: the NFD answer is compiled with Python's ``re`` (IGNORECASE, UNICODE,
  MULTILINE) and searched in the NFD context; a pattern that does not compile counts as not
  found;
* top-k accuracy: the index of the first of the first max(k) contexts holding an answer
  (max(k) if none), and 1 at cutoff k when that index is below k.

Pyserini takes the text after the title line (``ctx['text'].split('\\n')[1]``); these contexts
are the text already. ef refuses two inputs that Pyserini scores (an answer with no token and
a pattern matching the empty text are found everywhere; a bad pattern is never found): the
comparisons draw answers outside them, and the refusals are tested against the restatement's
own view of those inputs.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import pytest
import regex  # a core dependency (DrQA's tokenizer): its absence is a failure, not a skip
from hypothesis import assume, example, given
from hypothesis import strategies as st

from ef.evaluation import InvalidSampleError, RagSample, evaluate_rag
from ef.evaluation.metrics.has_answer import (
    contains_answer,
    drqa_tokens,
    first_answer_rank,
    sample_has_answer,
)

# -- the restatement of Pyserini's evaluate_dpr_retrieval.py --------------------------------


class DrqaSimpleTokenizer:
    """DrQA's SimpleTokenizer, reduced to what has_answers reads: the uncased words."""

    ALPHA_NUM = r"[\p{L}\p{N}\p{M}]+"
    NON_WS = r"[^\p{Z}\p{C}]"

    def __init__(self) -> None:
        self.pattern = regex.compile(
            f"({self.ALPHA_NUM})|({self.NON_WS})",
            flags=regex.IGNORECASE + regex.UNICODE + regex.MULTILINE,
        )

    def uncased_words(self, text: str) -> list[str]:
        return [match.group().lower() for match in self.pattern.finditer(text)]


TOKENIZER = DrqaSimpleTokenizer()


def nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def pyserini_regex_match(text: str, pattern: str) -> bool:
    try:
        compiled = re.compile(pattern, flags=re.IGNORECASE + re.UNICODE + re.MULTILINE)
    except BaseException:
        return False
    return compiled.search(text) is not None


def pyserini_has_answers(text: str, answers: list[str], use_regex: bool) -> bool:
    text = nfd(text)
    if use_regex:
        return any(pyserini_regex_match(text, nfd(answer)) for answer in answers)
    words = TOKENIZER.uncased_words(text)
    for answer in answers:
        answer_words = TOKENIZER.uncased_words(nfd(answer))
        for start in range(len(words) - len(answer_words) + 1):
            if words[start : start + len(answer_words)] == answer_words:
                return True
    return False


def pyserini_accuracy(
    contexts: list[str], answers: list[str], topk: list[int], use_regex: bool
) -> dict[int, int]:
    """One question's row of Pyserini's accuracy table: {k: 0 or 1}."""
    max_k = max(topk)
    first = max_k
    for index, context in enumerate(contexts):
        if index >= max_k:
            break
        if pyserini_has_answers(context, answers, use_regex):
            first = index
            break
    return {k: 0 if first >= k else 1 for k in topk}


# -- inputs ----------------------------------------------------------------------------------

# Letters in both cases (Greek capital sigma, whose lower case depends on what follows),
# digits, punctuation, symbols, separators (space, no-break space, tab, newline), controls,
# marks (a combining acute), composed letters, CJK and others.
ALPHABET = (
    "aAbBeEiIsSuU019\u0391\u03a3.,'-!?$() \u00a0\t\n\u0000\u200b\u0301\u0308éÉüßİ\u0131ǅ東京ﬁⅣ²"
)
words = st.text(alphabet=ALPHABET, min_size=0, max_size=12)
contexts_of = st.lists(words, min_size=0, max_size=6)


def has_token(answer: str) -> bool:
    return bool(TOKENIZER.uncased_words(nfd(answer)))


@st.composite
def question(draw: Any) -> tuple[list[str], list[str]]:
    """Contexts, and answers some of which are drawn from them (so that some are found)."""
    contexts = draw(contexts_of)
    answers = []
    for _ in range(draw(st.integers(1, 3))):
        if contexts and draw(st.booleans()):
            text = draw(st.sampled_from(contexts))
            start = draw(st.integers(0, len(text)))
            end = draw(st.integers(start, len(text)))
            piece = text[start:end]
            answers.append(draw(st.sampled_from([piece, piece.upper(), nfd(piece)])))
        else:
            answers.append(draw(words))
    return contexts, answers


# -- string matching -------------------------------------------------------------------------


@given(question(), st.lists(st.integers(1, 8), min_size=1, max_size=4))
@example((["Paris is the capital of France."], ["paris"]), [1])
@example((["A Parisian cafe."], ["Paris"]), [1])
@example((["the U.S. army", "x"], ["u.s."]), [1, 2])
@example((["Caf\u00e9 de Flore"], ["cafe\u0301"]), [1])
@example((["ǅemal İstanbul"], ["ǆemal"]), [1])
def test_string_match_equals_pyserini(case, topk) -> None:
    contexts, answers = case
    assume(all(has_token(answer) for answer in answers))
    expected = pyserini_accuracy(contexts, answers, topk, use_regex=False)
    sample: RagSample = {
        "reference": answers[0],
        "references": answers[1:],
        "retrieved_contexts": contexts,
    }
    assert {k: sample_has_answer(sample, k=k) for k in topk} == expected
    for context in contexts:
        assert contains_answer(context, answers) == pyserini_has_answers(context, answers, False)


@given(words)
def test_drqa_tokens_are_the_tokenizers_uncased_words_of_the_nfd_text(text) -> None:
    assert drqa_tokens(text) == TOKENIZER.uncased_words(nfd(text))


def test_drqa_tokens_on_every_pair_of_ascii_characters() -> None:
    # ASCII text takes a faster path (Python's re). Both scan classes of characters (a run of
    # letters and digits, another visible character, a skipped one): agreeing on every pair
    # of neighbours, they agree on every ASCII text.
    for first in map(chr, range(128)):
        for second in map(chr, range(128)):
            text = f"a{first}{second}1"
            assert drqa_tokens(text) == TOKENIZER.uncased_words(text), repr(text)


@given(words)
def test_an_answer_without_a_token_is_refused_where_pyserini_finds_it_anywhere(answer) -> None:
    if has_token(answer):
        first_answer_rank(["context"], [answer])  # no error
        return
    assert pyserini_has_answers("", [answer], use_regex=False)  # found even in nothing
    with pytest.raises(InvalidSampleError, match="has no token"):
        first_answer_rank(["context"], [answer])


@pytest.mark.parametrize(
    ("context", "answer", "found"),
    [
        ("Paris is the capital of France.", "Paris", True),
        ("PARIS!", "paris", True),
        ("A Parisian cafe.", "Paris", False),  # tokens, not substrings
        ("the U.S. army", "U.S.", True),
        ("the US army", "U.S.", False),
        ("1,000 people", "1,000", True),
        ("1,000 people", "1000", False),
        ("The Beatles' song", "the beatles", True),
        ("Caf\u00e9 de Flore", "Cafe\u0301", True),  # one spelling in NFD
        ("Caf\u00e9 de Flore", "Cafe", False),  # the accent is a mark inside the token
        ("New\nYork", "new york", True),  # separators and controls split alike
        ("東京 tower", "東京", True),
        ("東京タワー", "東京", False),  # a run of letters is one token
    ],
)
def test_hand_cases_agree_with_pyserini(context, answer, found) -> None:
    assert pyserini_has_answers(context, [answer], use_regex=False) is found
    assert contains_answer(context, [answer]) is found


# -- regex matching --------------------------------------------------------------------------

PATTERN_PARTS = st.sampled_from(
    ["a", "b", "e", "s", "é", "e\u0301", r"\.?", r"\d+", "[ab]", "(?:s|u)", r"\s", "x*", r"\b"]
)


@st.composite
def patterns(draw: Any, contexts: list[str]) -> str:
    if contexts and draw(st.booleans()):
        text: str = draw(st.sampled_from(contexts))
        start = draw(st.integers(0, len(text)))
        return re.escape(text[start : draw(st.integers(start, len(text)))])
    return "".join(draw(st.lists(PATTERN_PARTS, min_size=1, max_size=4)))


def usable(pattern: str) -> bool:
    """A pattern ef scores: it compiles and does not match the empty text."""
    try:
        compiled = re.compile(nfd(pattern), flags=re.IGNORECASE | re.UNICODE | re.MULTILINE)
    except re.error:
        return False
    return compiled.search("") is None


@given(st.data(), contexts_of, st.lists(st.integers(1, 8), min_size=1, max_size=3))
def test_regex_match_equals_pyserini(data, contexts, topk) -> None:
    answers = data.draw(st.lists(patterns(contexts), min_size=1, max_size=3))
    assume(all(usable(answer) for answer in answers))
    expected = pyserini_accuracy(contexts, answers, topk, use_regex=True)
    sample: RagSample = {
        "reference": answers[0],
        "references": answers[1:],
        "retrieved_contexts": contexts,
    }
    assert {k: sample_has_answer(sample, k=k, match="regex") for k in topk} == expected


@pytest.mark.parametrize(
    ("context", "pattern", "found"),
    [
        ("Mount Everest is 8,849 m high", r"Mo?u?n?t\.? Everest", True),
        ("mt. everest", r"Mt\.? Everest", True),  # case-insensitive
        ("Roosevelt", r"(?:Franklin )?Roosevelt", True),
        ("Caf\u00e9", "Cafe\u0301", True),  # NFD on both sides
        ("line one\nsecond line", "^second", True),  # MULTILINE
        ("Parisian", "Paris", True),  # a regex searches characters, not tokens
    ],
)
def test_regex_hand_cases_agree_with_pyserini(context, pattern, found) -> None:
    assert pyserini_has_answers(context, [pattern], use_regex=True) is found
    assert contains_answer(context, [pattern], match="regex") is found


@pytest.mark.parametrize(
    ("pattern", "message"),
    [
        ("Mt. (Everest", "is no regular expression"),
        ("", "matches the empty text"),
        ("x*", "matches the empty text"),
    ],
)
def test_patterns_pyserini_scores_silently_are_refused(pattern, message) -> None:
    # Pyserini: a bad pattern is never found, one matching "" is found in every context.
    found_in_empty = pyserini_has_answers("", [pattern], use_regex=True)
    assert found_in_empty is (message == "matches the empty text")
    with pytest.raises(InvalidSampleError, match=message):
        contains_answer("Mt. Everest", [pattern], match="regex")


# -- the sample: answers, cutoffs, skipping --------------------------------------------------


def test_a_further_answer_in_references_is_found() -> None:
    sample: RagSample = {"reference": "Paris", "retrieved_contexts": ["Lutetia"]}
    assert sample_has_answer({**sample, "references": ["Lutetia"]}, k=1) == 1.0
    assert sample_has_answer({**sample, "references": []}, k=1) == 0.0


def test_cutoffs_and_the_whole_list() -> None:
    sample: RagSample = {"reference": "Paris", "retrieved_contexts": ["Rome", "Oslo", "Paris"]}
    assert [sample_has_answer(sample, k=k) for k in (1, 2, 3, 50, None)] == [0, 0, 1, 1, 1]
    assert sample_has_answer({**sample, "retrieved_contexts": []}, k=5) == 0.0


def test_samples_without_contexts_or_answers_are_skipped() -> None:
    assert sample_has_answer({"reference": "Paris"}, k=5) is None
    assert sample_has_answer({"retrieved_contexts": ["Paris"]}, k=5) is None


SAMPLES = [
    {"id": "q1", "reference": "Paris", "retrieved_contexts": ["Rome.", "Paris, France."]},
    {"id": "q2", "reference": "Oslo", "retrieved_contexts": ["Oslo", "Bergen"]},
    {"id": "q3", "reference": "Lima", "retrieved_contexts": ["Quito"]},
    {"id": "q4", "retrieved_contexts": ["no reference"]},
]


def test_evaluate_rag_reports_top_k_accuracy(builtin_registry) -> None:
    report = evaluate_rag(
        SAMPLES, metrics=["has_answer"], k_values=(1, 2), registry=builtin_registry
    )
    assert dict(report.metrics) == {"has_answer@1": 1 / 3, "has_answer@2": 2 / 3}
    assert dict(report.coverage) == {"has_answer@1": 3, "has_answer@2": 3}
    assert report.per_sample["has_answer@2"] == (1.0, 1.0, 0.0, None)
    regex_report = evaluate_rag(
        SAMPLES, metrics=["has_answer(match=regex)@all"], registry=builtin_registry
    )
    assert dict(regex_report.metrics) == {"has_answer(match='regex')@all": 2 / 3}


def test_a_refused_answer_names_the_sample(builtin_registry) -> None:
    samples = [SAMPLES[0], {"id": "q2", "reference": " ", "retrieved_contexts": ["a"]}]
    with pytest.raises(InvalidSampleError, match=r"^sample 1 \(id 'q2'\): has_answer: the answer"):
        evaluate_rag(samples, metrics=["has_answer@1"], registry=builtin_registry)
    bad = [{"reference": "(", "retrieved_contexts": ["a"]}]
    with pytest.raises(InvalidSampleError, match=r"^sample 0: has_answer\(match='regex'\)"):
        evaluate_rag(bad, metrics=["has_answer(match=regex)@1"], registry=builtin_registry)
