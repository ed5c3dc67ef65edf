"""Reading a judge's answer: a list of strings, in the forms LLMs actually write it.

The prompts ask for a JSON list. Models wrap it in a code fence, put a sentence before it,
write it as a Python literal with single quotes, or (an Instructor judge) return an object
holding it: all of those are read. Anything else is refused (:class:`AnswerNotRead`), and
so is a label that is not one of the allowed ones: the caller turns that into an error that
names the sample and the item, never into a default label.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Mapping

__all__ = ["AnswerNotRead", "label_list", "string_list"]

_FENCE = re.compile(r"```[a-zA-Z]*")
_BULLET = re.compile(r"^\s*(?:[-*\u2022]|\d+[.):]|\[\d+\])\s*")


class AnswerNotRead(ValueError):
    """The answer is not a list of strings (or holds a label that is not allowed);
    ``index`` is the position of the first bad label, when one is to blame."""

    def __init__(self, problem: str, index: int | None = None) -> None:
        super().__init__(problem)
        self.index = index


def _literal(text: str) -> object:
    for parse in (json.loads, ast.literal_eval):
        try:
            return parse(text)
        except (ValueError, SyntaxError, RecursionError, TypeError, MemoryError):
            continue
    raise AnswerNotRead("not JSON or a Python literal")


def string_list(answer: str) -> list[str]:
    """The list of strings an answer holds: a JSON or Python list, alone or in a code fence
    or after some words, or the one list value of a JSON object.

    >>> string_list('["support", "not_support"]')
    ['support', 'not_support']
    >>> string_list("```python\\n['a', 'b']\\n```")
    ['a', 'b']
    >>> string_list('Labels: ["x"]'), string_list('{"labels": ["x", "y"]}'), string_list("[]")
    (['x'], ['x', 'y'], [])
    >>> string_list("I am not JSON")
    Traceback (most recent call last):
        ...
    ef_evaluation_ragas._answers.AnswerNotRead: no list in the answer
    """
    text = _FENCE.sub("", answer).strip()
    try:
        value = _literal(text)
    except AnswerNotRead:
        start, end = text.find("["), text.rfind("]")
        if start < 0 or end < start:
            raise AnswerNotRead("no list in the answer") from None
        value = _literal(text[start : end + 1])
    if isinstance(value, Mapping):
        lists = [v for v in value.values() if isinstance(v, list)]
        if len(lists) != 1:
            raise AnswerNotRead("an object without exactly one list in it")
        value = lists[0]
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise AnswerNotRead("not a list of strings")
    return value


def _lines(answer: str) -> list[str]:
    """The non-empty lines of an answer, without bullets or numbering."""
    return [
        _BULLET.sub("", line).strip()
        for line in _FENCE.sub("", answer).splitlines()
        if line.strip() and line.strip() not in ("[", "]")
    ]


def _word(text: str) -> str:
    return re.sub(r"[\s\-]+", "_", text.strip().strip("'\".,;:").strip().lower())


def label_list(answer: str, allowed: Mapping[str, str], count: int) -> list[str]:
    """The ``count`` labels of an answer, each mapped through ``allowed`` (its accepted
    spellings, lower case with ``_`` for spaces, to the label).

    The answer is a list (:func:`string_list`) or, as RefChecker's prompts ask, one label a
    line. A wrong count or an unknown label is :class:`AnswerNotRead`.

    >>> allowed = {"support": "support", "not_support": "not_support"}
    >>> label_list('["Support", "not support"]', allowed, 2)
    ['support', 'not_support']
    >>> label_list("1. support\\n2. not_support", allowed, 2)
    ['support', 'not_support']
    >>> label_list('["support", "maybe"]', allowed, 2)
    Traceback (most recent call last):
        ...
    ef_evaluation_ragas._answers.AnswerNotRead: label 2 is 'maybe'
    """
    try:
        items = string_list(answer)
    except AnswerNotRead:
        items = _lines(answer)
        if not items or any(_word(item) not in allowed for item in items):
            raise AnswerNotRead(f"not a list of {count} labels") from None
    if len(items) != count:
        raise AnswerNotRead(f"{len(items)} labels for {count} items")
    labels = []
    for index, item in enumerate(items):
        label = allowed.get(_word(item))
        if label is None:
            raise AnswerNotRead(f"label {index + 1} is {item!r}", index)
        labels.append(label)
    return labels
