"""The contract: every ``>>>`` example of ../shared/spec/ef_evaluation_api.txt passes verbatim."""

from __future__ import annotations

import doctest
import inspect
import re

import ef.evaluation

from .conftest import shared_path


def test_every_spec_example_passes() -> None:
    spec = shared_path("spec", "ef_evaluation_api.txt")
    text = spec.read_text(encoding="utf-8")
    globs = {name: getattr(ef.evaluation, name) for name in ef.evaluation.__all__}
    test = doctest.DocTestParser().get_doctest(text, globs, spec.name, str(spec), 0)
    assert len(test.examples) == 36, "the spec's example count changed; re-read the contract"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    result = runner.run(test, out=lambda message: print(message, end=""))
    assert result.failed == 0, f"{result.failed} of {result.attempted} spec examples failed"
    assert result.attempted == 36


def test_spec_names_are_public() -> None:
    spec_names = {
        "dcg_at_k", "ndcg_at_k", "recall_at_k", "precision_at_k", "reciprocal_rank",
        "average_precision", "evaluate_retrieval", "read_beir", "write_beir", "exact_match",
        "token_f1", "context_recall", "context_precision", "evaluate_rag", "as_ragas_dataset",
        "RagSample", "RetrievalEvalReport", "RagEvalReport", "Qrels", "RETRIEVAL_METRICS",
    }  # fmt: skip
    assert spec_names <= set(ef.evaluation.__all__)


SIGNATURE = re.compile(r"^(?:class )?ef\.evaluation\.(\w+)\((.*)\)$", re.M)


def _spec_signatures() -> dict[str, str]:
    text = shared_path("spec", "ef_evaluation_api.txt").read_text(encoding="utf-8")
    return dict(SIGNATURE.findall(text))


def test_signatures_and_defaults_match_the_spec() -> None:
    signatures = _spec_signatures()
    assert len(signatures) == 17
    for name, params in signatures.items():
        ours = inspect.signature(getattr(ef.evaluation, name))
        # The spec's parameters, in order, with its defaults; ours may add keyword-only
        # parameters with defaults after them (registry=), never change or drop one.
        spec = inspect.signature(eval(f"lambda {params}: None"))  # the spec's own text
        ours_params = list(ours.parameters.values())[: len(spec.parameters)]
        assert [(p.name, p.kind, p.default) for p in ours_params] == [
            (p.name, p.kind, p.default) for p in spec.parameters.values()
        ], name
        extra = list(ours.parameters.values())[len(spec.parameters) :]
        assert all(
            p.kind is inspect.Parameter.KEYWORD_ONLY and p.default is not inspect.Parameter.empty
            for p in extra
        ), name
