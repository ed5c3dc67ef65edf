"""Retrieval and answers in one report: BM25 on the demo dataset, an extractive answerer.

    python examples/pipeline.py [DATASET_DIR]           # needs the bm25 extra
    python examples/pipeline.py --write RUN ANSWERS     # the same run and answers, as files

It reads a BEIR-layout dataset (the package's demo by default) and its gold answers
(``references.jsonl``), indexes the corpus with BM25 (``ef.evaluation.BM25Retriever``), and
answers each question with a deterministic extractive "generator": the first sentence of
the top retrieved context. evaluate_pipeline() runs both and scores both, query by query,
in one report. Put your own LLM call in place of ``first_sentence``: ef never generates.

With ``--write`` it writes the BM25 run (TREC, the top 10 of each query) and the answers
(JSONL) instead, for ``ef-eval pipeline demo --run RUN --answers ANSWERS --contexts 3``:
``examples/run.bm25.trec`` and ``examples/answers.bm25.jsonl`` were made that way.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from ef.evaluation import (
    BM25Retriever,
    PipelineEvalReport,
    demo_path,
    evaluate_pipeline,
    read_beir,
    read_references,
    retrieve,
    write_run,
)

N_CONTEXTS = 3
K_VALUES = (1, 3, 10)


def first_sentence(question: str, contexts: list[str]) -> str:
    """The first sentence of the top context, or nothing when nothing was retrieved."""
    if not contexts:
        return ""
    return re.split(r"(?<=[.!?;:])\s+", contexts[0], maxsplit=1)[0]


def run_pipeline(dataset: Path) -> PipelineEvalReport:
    corpus, queries, qrels = read_beir(dataset)
    references = read_references(dataset / "references.jsonl", queries=queries)
    return evaluate_pipeline(
        BM25Retriever(corpus),
        qrels,
        queries,
        generate=first_sentence,
        corpus=corpus,
        references=references,
        n_contexts=N_CONTEXTS,
        k_values=K_VALUES,
    )


def main(dataset: Path) -> None:
    report = run_pipeline(dataset)
    print(report)
    print()
    print(f"{'query':<6} {'ndcg@10':>8} {'token_f1':>8}  answer")
    for sample in report.samples:
        values = report.per_query[sample["id"]]
        f1 = values["token_f1"]
        shown = "-" if f1 is None else f"{f1:.4f}"
        print(f"{sample['id']:<6} {values['ndcg@10']:>8.4f} {shown:>8}  {sample['response']}")


def write_files(run_file: Path, answers_file: Path, dataset: Path) -> None:
    report = run_pipeline(dataset)
    corpus, queries, _ = read_beir(dataset)
    judged = {query_id: queries[query_id] for query_id in report.query_ids}
    # the rankings evaluate_pipeline scored: the same retriever, max(K_VALUES) results each
    write_run(run_file, retrieve(BM25Retriever(corpus), judged, limit=max(K_VALUES)).rankings)
    lines = [json.dumps({"id": s["id"], "response": s["response"]}) for s in report.samples]
    answers_file.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--write"] and len(args) >= 3:
        write_files(Path(args[1]), Path(args[2]), Path(args[3]) if len(args) > 3 else demo_path())
    else:
        main(Path(args[0]) if args else demo_path())
