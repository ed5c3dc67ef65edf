"""The demo dataset shipped inside the package (``ef-eval retrieve demo``)."""

from __future__ import annotations

from pathlib import Path

__all__ = ["DEMO_NAME", "demo_path"]

#: The name the CLI resolves to :func:`demo_path` wherever it takes a dataset.
DEMO_NAME = "demo"


def demo_path() -> Path:
    """The directory of the demo dataset that ships with ef-evaluation, in BEIR layout.

    Written for this project (Apache-2.0): 36 short encyclopedia-style passages
    (``corpus.jsonl``), 15 questions (``queries.jsonl``) with graded judgements
    (``qrels/test.tsv``; ``q8`` has no relevant passage, so evaluators skip it), a gold
    answer for each of the other 14 (``references.jsonl``) and 4 RAG samples of its queries
    (``rag_samples.jsonl``, each with its query's id). Some questions share no word with
    their answer, so BM25 scores well below 1 on it. ``ef-eval`` commands take the name
    ``demo`` for it.

    >>> from ef.evaluation import read_dataset
    >>> corpus, queries, qrels = read_dataset(demo_path())
    >>> len(corpus), len(queries), len(qrels)
    (36, 15, 15)
    >>> sorted(p.name for p in demo_path().iterdir())
    ['README.md', 'corpus.jsonl', 'qrels', 'queries.jsonl', 'rag_samples.jsonl', \
'references.jsonl']
    """
    from importlib.resources import files  # here: a command naming no demo needs none

    path = files("ef.evaluation") / "data" / "demo"
    if not isinstance(path, Path) or not path.is_dir():
        raise FileNotFoundError(
            f"the demo dataset is not a directory on disk ({path}); reinstall ef-evaluation "
            "from a wheel or a checkout"
        )
    return path
