"""Evaluate a toy retriever on the demo dataset shipped in the package, from Python.

    python examples/quickstart.py [DATASET_DIR]
    python examples/quickstart.py --write-run RUN_FILE [DATASET_DIR]

It reads a BEIR-layout dataset (the package's demo, ``ef.evaluation.demo_path()``, by default),
ranks the corpus for each query by word overlap, scores the rankings with
evaluate_retrieval(), then scores the demo's RAG samples with evaluate_rag(). With
``--write-run`` it writes the same rankings as a TREC run file instead:
``examples/run.overlap.trec`` was made that way, for ``ef-eval evaluate demo RUN``.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

from ef.evaluation import demo_path, evaluate_rag, evaluate_retrieval, read_beir, write_run

# fmt: off
STOPWORDS = {
    "the", "a", "an", "of", "to", "and", "is", "are", "how", "what", "why", "who", "do", "does",
    "from", "on", "for",
}
# fmt: on


def words(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in STOPWORDS]


class WordOverlapRetriever:
    """Ranks documents by how many query words they contain (ties: corpus order)."""

    def __init__(self, corpus: dict[str, str]) -> None:
        self.docs = {doc_id: Counter(words(text)) for doc_id, text in corpus.items()}

    def search(self, query: str, limit: int = 10) -> list[tuple[str, float]]:
        terms = set(words(query))
        scored = [(doc_id, float(sum(bag[t] for t in terms))) for doc_id, bag in self.docs.items()]
        ranked = sorted((hit for hit in scored if hit[1] > 0), key=lambda hit: -hit[1])
        return ranked[:limit]


def main(dataset: Path) -> None:
    corpus, queries, qrels = read_beir(dataset)
    print(f"{dataset}: {len(corpus)} documents, {len(queries)} queries, {len(qrels)} judged\n")

    report = evaluate_retrieval(WordOverlapRetriever(corpus), qrels, queries, k_values=(1, 3, 10))
    print(report)
    for query_id, reason in report.skipped.items():
        print(f"  skipped {query_id}: {reason}")
    print(f"\nprimary metric, nDCG@10: {report.primary:.4f}\n")

    samples_file = dataset / "rag_samples.jsonl"
    if samples_file.is_file():
        samples = [
            json.loads(line) for line in samples_file.read_text(encoding="utf-8").splitlines()
        ]
        print(evaluate_rag(samples))


def write_demo_run(target: Path, dataset: Path) -> None:
    corpus, queries, _ = read_beir(dataset)
    retriever = WordOverlapRetriever(corpus)
    run = {qid: dict(retriever.search(text, limit=20)) for qid, text in queries.items()}
    write_run(target, run)  # TREC format; tied scores are ranked by trec_eval's rule


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--write-run"] and len(args) >= 2:
        write_demo_run(Path(args[1]), Path(args[2]) if len(args) > 2 else demo_path())
    else:
        main(Path(args[0]) if args else demo_path())
