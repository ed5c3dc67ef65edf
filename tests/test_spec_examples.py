"""The contract: every ``>>>`` example of ../shared/spec/ef_evaluation_api.txt passes verbatim."""

from __future__ import annotations

import doctest

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
