"""Time ef's lexical RAG metrics against the official SQuAD v1.1 functions and Ragas' non-LLM
metrics, on the same synthetic samples.

    python benchmarks/rag.py                  # 100,000 samples, best of 3
    python benchmarks/rag.py -n 1000 --repeat 1 --json

The samples are generated deterministically (a fixed seed): a question, a response, a
reference and 4 retrieved contexts of English-like words, with capitals, punctuation and
articles for the normalisation to strip. Each row scores all of them:

* ``ef evaluate_rag``: the API end to end (sample checks, the 4 lexical metrics
  exact_match, token_f1, context_recall and context_precision, the report);
* ``ef evaluate_rag (EM, F1)``: the same with exact_match and token_f1 only;
* ``SQuAD v1.1 (EM, F1)``: the official script's ``exact_match_score`` and ``f1_score``
  (restated below), the reference for those two;
* ``Ragas non-LLM``: Ragas' ``ExactMatch``, ``NonLLMStringSimilarity``,
  ``NonLLMContextRecall`` and ``NonLLMContextPrecisionWithReference`` through
  ``ragas.evaluate``, when ragas is importable (its metrics are not ef's: the row shows the
  cost of the bridge's path, not the same numbers).

It prints the best wall time of ``--repeat`` rounds, each row's time per sample, and the
ratio to the SQuAD functions. Timings are never asserted anywhere: this is a script, not a
test. ef's EM and F1 are checked against the SQuAD functions' on every sample (ASCII text,
where ef's Unicode-aware punctuation equals the script's) before anything is timed.
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import json
import os
import platform
import random
import re
import string
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from typing import Any

from ef.evaluation import evaluate_rag

SEED = 16
LEXICAL = ("exact_match", "token_f1", "context_recall", "context_precision")

# --- The official SQuAD v1.1 evaluation script's functions -------------------------------
# Restated from https://github.com/allenai/bi-att-flow/blob/master/squad/evaluate-v1.1.py
# (the script the SQuAD site links, rajpurkar.github.io/SQuAD-explorer), unchanged but for
# names and formatting.


def squad_normalize_answer(s: str) -> str:
    """Lower text and remove punctuation, articles and extra whitespace."""

    def remove_articles(text: str) -> str:
        return re.sub(r"\b(a|an|the)\b", " ", text)

    def white_space_fix(text: str) -> str:
        return " ".join(text.split())

    def remove_punc(text: str) -> str:
        exclude = set(string.punctuation)
        return "".join(ch for ch in text if ch not in exclude)

    def lower(text: str) -> str:
        return text.lower()

    return white_space_fix(remove_articles(remove_punc(lower(s))))


def squad_f1_score(prediction: str, ground_truth: str) -> float:
    prediction_tokens = squad_normalize_answer(prediction).split()
    ground_truth_tokens = squad_normalize_answer(ground_truth).split()
    common = collections.Counter(prediction_tokens) & collections.Counter(ground_truth_tokens)
    num_same = sum(common.values())
    if num_same == 0:
        return 0
    precision = 1.0 * num_same / len(prediction_tokens)
    recall = 1.0 * num_same / len(ground_truth_tokens)
    return (2 * precision * recall) / (precision + recall)


def squad_exact_match_score(prediction: str, ground_truth: str) -> bool:
    return squad_normalize_answer(prediction) == squad_normalize_answer(ground_truth)


# --- The samples ------------------------------------------------------------------------

# fmt: off
_WORDS = [
    "ocean", "tide", "moon", "gravity", "planet", "orbit", "sun", "light", "water", "cloud",
    "rain", "river", "mountain", "city", "capital", "france", "paris", "rome", "italy", "bread",
    "yeast", "flour", "plant", "leaf", "sugar", "oxygen", "carbon", "whale", "animal", "forest",
    "winter", "bird", "summer", "energy", "battery", "engine", "car", "road", "bridge", "tower",
    "history", "king", "queen", "war", "peace", "science", "atom", "cell", "virus", "doctor",
    "school", "music", "art",
]
# fmt: on
_ARTICLES = ("the", "a", "an", "The", "A")
_PUNCTUATION = (",", ".", ";", "!", "?", "'s", ":")


def _text(rng: random.Random, words: int) -> str:
    out = []
    for _ in range(words):
        roll = rng.random()
        if roll < 0.15:
            out.append(rng.choice(_ARTICLES))
        word = rng.choice(_WORDS)
        out.append(word.capitalize() if roll > 0.9 else word)
        if rng.random() < 0.1:
            out[-1] += rng.choice(_PUNCTUATION)
    return " ".join(out)


def make_samples(n: int, seed: int = SEED) -> list[dict[str, Any]]:
    """``n`` RagSamples; about a fifth answer exactly (up to case, articles, punctuation)."""
    rng = random.Random(seed)
    samples = []
    for i in range(n):
        reference = _text(rng, rng.randint(1, 6))
        if rng.random() < 0.2:
            response = reference.upper() + rng.choice(("", ".", "!"))
        else:
            response = _text(rng, rng.randint(1, 12))
        samples.append(
            {
                "id": f"s{i}",
                "user_input": _text(rng, 8) + "?",
                "response": response,
                "reference": reference,
                "retrieved_contexts": [_text(rng, rng.randint(20, 40)) for _ in range(4)],
            }
        )
    return samples


# --- The rows -----------------------------------------------------------------------------


def ef_all(samples: Sequence[dict[str, Any]]) -> object:
    return evaluate_rag(samples, metrics=LEXICAL)


def ef_em_f1(samples: Sequence[dict[str, Any]]) -> object:
    return evaluate_rag(samples, metrics=("exact_match", "token_f1"))


def squad_em_f1(samples: Sequence[dict[str, Any]]) -> object:
    em = [float(squad_exact_match_score(s["response"], s["reference"])) for s in samples]
    f1 = [squad_f1_score(s["response"], s["reference"]) for s in samples]
    return sum(em) / len(em), sum(f1) / len(f1)


def ragas_row() -> tuple[Callable[[Sequence[dict[str, Any]]], object] | None, str]:
    """Ragas' non-LLM metrics, or None and why not."""
    if importlib.util.find_spec("ragas") is None:
        return None, "ragas is not installed (pip install ragas, or the ragas extra)"
    # Before the import: no usage telemetry, and Ragas' files in a scratch folder.
    os.environ["RAGAS_DO_NOT_TRACK"] = "true"
    os.environ.setdefault("XDG_DATA_HOME", tempfile.mkdtemp(prefix="ragas-bench-"))
    try:
        from ragas import EvaluationDataset, evaluate
        from ragas.metrics import (
            ExactMatch,
            NonLLMContextPrecisionWithReference,
            NonLLMContextRecall,
            NonLLMStringSimilarity,
        )
    except Exception as exc:  # ImportError, or a broken install: the row is skipped
        return None, f"ragas is not importable ({type(exc).__name__}: {exc})"

    metrics = [
        ExactMatch(),
        NonLLMStringSimilarity(),
        NonLLMContextRecall(),
        NonLLMContextPrecisionWithReference(),
    ]

    def score(samples: Sequence[dict[str, Any]]) -> object:
        rows = [
            {**{k: v for k, v in s.items() if k != "id"}, "reference_contexts": [s["reference"]]}
            for s in samples
        ]
        dataset = EvaluationDataset.from_list(rows)
        return evaluate(dataset, metrics=metrics, show_progress=False)

    return score, "ragas"


def check_agreement(samples: Sequence[dict[str, Any]]) -> int:
    """How many samples' EM and F1 differ between ef and the SQuAD functions (0 expected)."""
    report = evaluate_rag(samples, metrics=("exact_match", "token_f1"))
    em, f1 = report.per_sample["exact_match"], report.per_sample["token_f1"]
    return sum(
        em[i] != float(squad_exact_match_score(s["response"], s["reference"]))
        or abs((f1[i] or 0.0) - squad_f1_score(s["response"], s["reference"])) > 1e-12
        for i, s in enumerate(samples)
    )


def measure(n: int, repeat: int) -> dict[str, Any]:
    samples = make_samples(n)
    rows: dict[str, Callable[[Sequence[dict[str, Any]]], object]] = {
        "ef evaluate_rag": ef_all,
        "ef evaluate_rag (EM, F1)": ef_em_f1,
        "SQuAD v1.1 (EM, F1)": squad_em_f1,
    }
    skipped: dict[str, str] = {}
    ragas, why = ragas_row()
    if ragas is None:
        skipped["Ragas non-LLM"] = why
    else:
        rows["Ragas non-LLM"] = ragas
    disagreements = check_agreement(samples)
    ef_all(samples[:100])  # warm up: the plugin registry, the punctuation table
    best: dict[str, float] = {}
    for _ in range(repeat):
        for name, row in rows.items():
            started = time.perf_counter()
            row(samples)
            elapsed = time.perf_counter() - started
            best[name] = min(elapsed, best.get(name, elapsed))
    base = best["SQuAD v1.1 (EM, F1)"]
    return {
        "samples": n,
        "repeat": repeat,
        "python": platform.python_version(),
        "seconds": best,
        "microseconds_per_sample": {name: 1e6 * s / n for name, s in best.items()},
        "ratio_to_squad": {name: s / base for name, s in best.items()},
        "skipped": skipped,
        "ef_squad_disagreements": disagreements,
    }


def report(result: dict[str, Any]) -> str:
    lines = [
        f"{result['samples']:,} synthetic samples, best of {result['repeat']}, "
        f"python {result['python']} on {platform.machine()}",
        f"ef's exact_match and token_f1 differ from the SQuAD functions' on "
        f"{result['ef_squad_disagreements']} samples",
        "",
        f"{'row':<26} {'seconds':>9} {'µs/sample':>10} {'x SQuAD':>8}",
    ]
    for name, seconds in result["seconds"].items():
        lines.append(
            f"{name:<26} {seconds:>9.3f} {result['microseconds_per_sample'][name]:>10.2f} "
            f"{result['ratio_to_squad'][name]:>8.3f}"
        )
    for name, why in result["skipped"].items():
        lines.append(f"{name:<26} skipped: {why}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("-n", "--samples", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="Print the result as JSON.")
    args = parser.parse_args(argv)
    if args.samples < 1 or args.repeat < 1:
        print("--samples and --repeat must be at least 1", file=sys.stderr)
        return 2
    result = measure(args.samples, args.repeat)
    print(json.dumps(result, indent=2) if args.json else report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
