"""The claim labeler ``ragas.claims``: RAGChecker's claim extraction and checking, with your LLM.

RAGChecker (Ru et al., NeurIPS 2024), through RefChecker, labels a sample in two steps:

1. **Extract** the claims of the response and of the gold answer (``reference``), each given
   the question: fine-grained, self-contained statements, one piece of knowledge each.
2. **Check** each claim against a text, three-way (``Entailment``, ``Neutral``,
   ``Contradiction``): the response's claims against the gold answer (``answer2response``)
   and the gold claims against the response (``response2answer``), each as one text; and
   every claim against each retrieved context on its own (``retrieved2response``,
   ``retrieved2answer``: a row per claim, a label per context). Several claims share a
   prompt (``batch_size``, RAGChecker's ``joint_check_num`` of 5).

A label list is made only when the sample has what it needs: ``answer2response`` needs a
response and a reference, ``retrieved2*`` the ``retrieved_contexts``. The ``claims.*``
metrics skip the samples that lack a list. An empty text has no claims, without a call.

Where RefChecker pads a short answer with ``Neutral``, the bridge refuses it: a
:class:`MalformedAnswerError` naming the sample, the check and the claim.

Run it through ef: ``label_claims(samples, "ragas.claims", llm=my_judge)``; see
:func:`label_with_llm` for the options, and :func:`dry_run_claims` for the plan.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TextIO

from ef.evaluation import sample_id

from ._answers import AnswerNotRead, label_list, string_list
from ._asking import Asker, LLMUsage, MalformedAnswerError, asking
from .judged import LLMPlan

__all__ = ["CLAIM_LABELER", "check_prompt", "dry_run_claims", "extract_prompt", "label_with_llm"]

#: The labeler's name in ``label_claims``.
CLAIM_LABELER = "ragas.claims"

_LABELS = {"entailment": "Entailment", "neutral": "Neutral", "contradiction": "Contradiction"}

_EXTRACT = """\
List the claims a text makes in reply to a question. A claim is one fine-grained piece of \
knowledge the text states:
- one fact per claim: split a sentence that states several;
- self-contained: fill in what it needs from the rest of the text (who, what, when), so \
that it reads on its own;
- complete: keep the conditions the text gives it (a date, a place, a number);
- opinions, speculation, questions and refusals to answer are not claims.
This is an extraction task: do not judge whether a claim is true.

Question: {question}

Text: {text}

Return a JSON list of the claims, each one sentence (for example ["Paris is the capital \
of France.", "Paris lies on the Seine."]), or [] if the text makes no claim. Return only \
the list."""

_CHECK = """\
Check whether a reference entails each of {count} claims made in reply to a question. \
Label every claim with one of these labels:
- Entailment: the reference supports the claim;
- Contradiction: the reference does not support the claim and contradicts it;
- Neutral: the reference neither supports nor contradicts the claim, or lacks what is \
needed to check it.
Compare each claim with the reference only; do not use your own knowledge.

Question: {question}

Reference: {reference}

Claims:
{claims}

Return a JSON list of exactly {count} labels, one per claim, in the order of the claims \
(for example ["Entailment", "Neutral"]). Return only the list, no explanation."""


def extract_prompt(question: str, text: str) -> str:
    """The prompt that asks for the claims of a response or a gold answer.

    >>> "Text: Paris." in extract_prompt("capital of France?", "Paris.")
    True
    """
    return _EXTRACT.format(question=question, text=text)


def check_prompt(question: str, reference: str, claims: Sequence[str]) -> str:
    """The prompt that asks whether ``reference`` entails each of a batch of claims.

    >>> print(check_prompt("q?", "Paris is the capital.", ["Paris is the capital."])
    ...       .split("Claims:\\n")[1].splitlines()[0])
    1. Paris is the capital.
    """
    listed = "\n".join(f"{i}. {claim}" for i, claim in enumerate(claims, 1))
    return _CHECK.format(count=len(claims), question=question, reference=reference, claims=listed)


def _where(sample: Mapping[str, Any], index: int) -> str:
    name = sample.get("id")
    return f"sample {str(name)!r}" if name is not None else f"sample {index} (no id)"


class _Labelling:
    """The requests of one sample."""

    def __init__(self, asker: Asker, sample: Mapping[str, Any], index: int, batch: int) -> None:
        self.asker = asker
        self.sample = sample
        self.index = index
        self.batch = batch
        self.question = str(sample.get("user_input") or "")
        self.name = sample_id(sample, index)

    def _refused(
        self, item: str, what: str
    ) -> Callable[[str, AnswerNotRead], MalformedAnswerError]:
        def refused(answer: str, exc: AnswerNotRead) -> MalformedAnswerError:
            return MalformedAnswerError(
                f"{CLAIM_LABELER}: the judge's answer for {_where(self.sample, self.index)}, "
                f"{item}, is not {what}: {exc}; it answered {answer!r:.300}",
                labeller=CLAIM_LABELER,
                sample_id=self.name,
                item=item,
                answer=answer,
            )

        return refused

    async def extract(self, side: str, text: str) -> list[str] | None:
        """The claims of ``text`` (``side`` is response or reference); None if planned."""
        if not text.strip():
            return []
        return await self.asker.ask(
            extract_prompt(self.question, text),
            sample_id=self.name,
            step=f"{CLAIM_LABELER}: extract {side}",
            sample={"user_input": self.question, side: text},
            field="claims",
            read=string_list,
            refused=self._refused(f"the claims of its {side}", "a JSON list of claims"),
        )

    async def check(self, kind: str, claims: Sequence[str], reference: str) -> list[str]:
        """The label of each claim by ``reference``, ``batch`` claims a prompt."""

        async def one(start: int) -> list[str]:
            chunk = list(claims[start : start + self.batch])

            def refused(answer: str, exc: AnswerNotRead) -> MalformedAnswerError:
                bad = exc.index
                item = (
                    f"{kind}, claim {start + bad + 1} ({chunk[bad]!r})"
                    if bad is not None
                    else f"{kind}, claims {start + 1}-{start + len(chunk)} (from {chunk[0]!r})"
                )
                what = f"a list of {len(chunk)} labels (Entailment, Neutral, Contradiction)"
                return self._refused(item, what)(answer, exc)

            labels = await self.asker.ask(
                check_prompt(self.question, reference, chunk),
                sample_id=self.name,
                step=f"{CLAIM_LABELER}: {kind}",
                sample={"user_input": self.question, "reference": reference},
                field="labels",
                read=lambda answer: label_list(answer, _LABELS, len(chunk)),
                refused=refused,
            )
            # None only in a dry run, whose labels are never used: keep the shape.
            return labels if labels is not None else [""] * len(chunk)

        parts = await asyncio.gather(*(one(s) for s in range(0, len(claims), self.batch)))
        return [label for part in parts for label in part]

    async def matrix(
        self, kind: str, claims: Sequence[str], contexts: Sequence[str]
    ) -> list[list[str]]:
        """A row per claim, a label per context: each context checked on its own."""
        columns = await asyncio.gather(
            *(self.check(f"{kind}, context {i + 1}", claims, c) for i, c in enumerate(contexts))
        )
        return [[column[row] for column in columns] for row in range(len(claims))]

    async def labels(self) -> dict[str, Any]:
        sample = self.sample
        response, reference = sample.get("response"), sample.get("reference")
        contexts = sample.get("retrieved_contexts")
        sides = [("response", response), ("reference", reference)]
        r_claims, g_claims = await asyncio.gather(
            *(self.extract(side, text) if text is not None else _none() for side, text in sides)
        )
        out: dict[str, Any] = {}
        jobs: dict[str, Any] = {}
        if r_claims is not None:
            out["response_claims"] = r_claims
            if reference is not None:
                jobs["answer2response"] = self.check("answer2response", r_claims, reference)
            if contexts is not None:
                jobs["retrieved2response"] = self.matrix("retrieved2response", r_claims, contexts)
        if g_claims is not None:
            out["reference_claims"] = g_claims
            if response is not None:
                jobs["response2answer"] = self.check("response2answer", g_claims, response)
            if contexts is not None:
                jobs["retrieved2answer"] = self.matrix("retrieved2answer", g_claims, contexts)
        done = await asyncio.gather(*jobs.values())
        out.update(zip(jobs, done, strict=True))
        return out


async def _none() -> None:
    return None


async def _label(
    asker: Asker, samples: Sequence[Mapping[str, Any]], batch_size: int
) -> list[dict[str, Any]]:
    return list(
        await asyncio.gather(
            *(_Labelling(asker, s, i, batch_size).labels() for i, s in enumerate(samples))
        )
    )


def _run(
    samples: Iterable[Mapping[str, Any]],
    dry_run: bool,
    out: TextIO | None,
    *,
    llm: Any,
    model_id: str | None,
    cache: str | os.PathLike[str] | bool,
    count_tokens: Callable[[str], int] | None,
    run_config: Any,
    batch_size: int,
    temperature: float,
    usage: LLMUsage | None,
) -> list[dict[str, Any]] | LLMPlan:
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise ValueError(f"{CLAIM_LABELER}: batch_size must be a positive int, got {batch_size!r}")
    chosen = list(samples)
    return asking(
        CLAIM_LABELER,
        lambda asker: _label(asker, chosen, batch_size),
        llm=llm,
        model_id=model_id,
        cache=cache,
        count_tokens=count_tokens,
        run_config=run_config,
        temperature=temperature,
        usage=usage,
        dry_run=dry_run,
        note=(
            "the claim extractions the cache cannot answer, and the checks of the claims it "
            "can; each uncached extraction is followed by checks built from its answer"
        ),
        out=out,
    )


def label_with_llm(
    samples: Iterable[Mapping[str, Any]],
    *,
    llm: Any = None,
    model_id: str | None = None,
    cache: str | os.PathLike[str] | bool = True,
    count_tokens: Callable[[str], int] | None = None,
    run_config: Any = None,
    batch_size: int = 5,
    temperature: float = 0.0,
    usage: LLMUsage | None = None,
    dry_run: bool = False,
) -> list[dict[str, Any]]:
    """Extract and check the claims of each sample with your LLM: the labeler ``ragas.claims``.

    Call it through ef, which writes the labels into copies of the samples under ``claims``:
    ``label_claims(samples, "ragas.claims", llm=my_judge, usage=usage)``.

    Args:
        samples: RagSamples; the prompts read ``user_input``, ``response``, ``reference``
            and ``retrieved_contexts``.
        llm: the judge, required: a ``ragas.llms.BaseRagasLLM``, the Instructor judge of
            ``ragas.llms.llm_factory``, or a LangChain chat model.
        model_id, cache, count_tokens, run_config, temperature, usage: as for
            :func:`~ef_evaluation_ragas.nuggets.assign_with_llm`.
        batch_size: claims checked per prompt (RAGChecker's ``joint_check_num``, 5).
        dry_run: refused with a pointer to :func:`dry_run_claims`, which has the plan.

    Returns:
        per sample, a mapping of ``response_claims``, ``reference_claims`` and RAGChecker's
        label lists, those the sample's fields allow.

    Raises:
        MalformedAnswerError: an extraction that is not a list of claims, or a check that
            is not one label per claim; the message names the sample, the check and claim.
        ValueError: no ``llm``, or a judge of unknown model with the cache on.
    """
    if dry_run:
        raise ValueError(
            f"{CLAIM_LABELER}: the call returns labelled samples, so it has no dry run; "
            "ef_evaluation_ragas.dry_run_claims(samples, llm=...) gives the plan, calling nothing"
        )
    result = _run(
        samples,
        False,
        None,
        llm=llm,
        model_id=model_id,
        cache=cache,
        count_tokens=count_tokens,
        run_config=run_config,
        batch_size=batch_size,
        temperature=temperature,
        usage=usage,
    )
    assert not isinstance(result, LLMPlan)
    return result


def dry_run_claims(
    samples: Iterable[Mapping[str, Any]],
    *,
    llm: Any,
    model_id: str | None = None,
    cache: str | os.PathLike[str] | bool = True,
    count_tokens: Callable[[str], int] | None = None,
    batch_size: int = 5,
    temperature: float = 0.0,
    out: TextIO | None = None,
) -> LLMPlan:
    """The calls ``label_claims(samples, "ragas.claims", ...)`` would make, and their
    estimated prompt tokens, printed (to ``out``) and returned; no LLM is called.

    The checks are built from the extracted claims, so they are planned only for the
    extractions the cache already holds: for a sample seen for the first time, the plan
    lists its extractions (a lower bound, as for Ragas' multi-step metrics); run again after
    the extractions are cached and it lists every check.
    """
    result = _run(
        samples,
        True,
        out,
        llm=llm,
        model_id=model_id,
        cache=cache,
        count_tokens=count_tokens,
        run_config=None,
        batch_size=batch_size,
        temperature=temperature,
        usage=None,
    )
    assert isinstance(result, LLMPlan)
    return result
