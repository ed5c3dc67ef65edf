"""RagSamples <-> ``ragas.EvaluationDataset``, lossless in both directions.

Ragas' ``SingleTurnSample`` silently drops keys it does not know (a sample ``id``, say). The
dataset returned here is a subclass of ``EvaluationDataset`` that keeps those keys beside the
samples, in order, so :func:`from_ragas_dataset` gives back exactly what went in.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from ef.evaluation.types import SAMPLE_FIELDS, validate_sample

from ._ragas import ragas_module

__all__ = ["as_ragas_dataset", "from_ragas_dataset"]


@cache
def _dataset_class() -> type:
    """``EfEvaluationDataset``: built on first use, because defining it imports Ragas."""
    import dataclasses

    ragas = ragas_module()

    @dataclasses.dataclass
    class EfEvaluationDataset(ragas.EvaluationDataset):  # type: ignore[misc, name-defined]
        """A ``ragas.EvaluationDataset`` that remembers each sample's non-Ragas keys."""

        #: Per sample, in order, the keys SingleTurnSample cannot hold (ids and the like).
        ef_extras: list[dict[str, Any]] = dataclasses.field(
            default_factory=list, repr=False, compare=False
        )

        def __getitem__(self, idx: Any) -> Any:
            if isinstance(idx, slice):  # keep the extras aligned with a sliced dataset
                return type(self)(samples=self.samples[idx], ef_extras=self.ef_extras[idx])
            return super().__getitem__(idx)

    EfEvaluationDataset.__module__ = __name__
    return EfEvaluationDataset


def as_ragas_dataset(samples: Iterable[Mapping[str, Any]]) -> Any:
    """Convert RagSamples into a ``ragas.EvaluationDataset`` that ``ragas.evaluate`` accepts.

    Every SingleTurnSample field is carried over unchanged; other keys are kept on the
    returned dataset (``dataset.ef_extras``) and come back with :func:`from_ragas_dataset`.
    Samples are checked first: a malformed one raises ``InvalidSampleError`` naming its index.

    >>> dataset = as_ragas_dataset([{"id": "s1", "user_input": "q", "response": "a"}])
    >>> type(dataset).__mro__[1].__name__, len(dataset), dataset.ef_extras
    ('EvaluationDataset', 1, [{'id': 's1'}])
    """
    ragas = ragas_module()
    rows = [validate_sample(sample, index) for index, sample in enumerate(samples)]
    ragas_samples, extras = [], []
    for row in rows:
        fields = {k: v for k, v in row.items() if k in SAMPLE_FIELDS and v is not None}
        ragas_samples.append(ragas.SingleTurnSample(**fields))
        extras.append({k: v for k, v in row.items() if k not in SAMPLE_FIELDS})
    return _dataset_class()(samples=ragas_samples, ef_extras=extras)


def from_ragas_dataset(dataset: Any) -> list[dict[str, Any]]:
    """Convert a ``ragas.EvaluationDataset`` back into RagSample dicts.

    Fields that are ``None`` are left out, as Ragas' ``to_list`` does. For a dataset made by
    :func:`as_ragas_dataset`, the keys Ragas could not hold are restored, so the round trip
    gives back the original samples.

    >>> samples = [{"id": "s1", "user_input": "q", "retrieved_context_ids": [1, "d2"]}]
    >>> from_ragas_dataset(as_ragas_dataset(samples)) == samples
    True
    """
    ragas = ragas_module()
    if not isinstance(dataset, ragas.EvaluationDataset):
        raise TypeError(f"expected a ragas.EvaluationDataset, got {type(dataset).__name__}")
    if dataset.samples and dataset.is_multi_turn():
        raise ValueError("multi-turn Ragas datasets have no RagSample form; only single-turn ones")
    extras = getattr(dataset, "ef_extras", None) or [{} for _ in dataset.samples]
    return [
        {**extra, **sample.to_dict()} for sample, extra in zip(dataset.samples, extras, strict=True)
    ]
