"""The official QA evaluation scripts' normalisation, EM and F1, restated for differential tests.

Each function restates, step by step and in the scripts' own order, what the official script
does, so that ef's implementation (written differently, in ef.evaluation.metrics) is checked
against the scripts' logic, offline. Read from:

* SQuAD v1.1: ``evaluate-v1.1.py`` of https://rajpurkar.github.io/SQuAD-explorer/, as HF
  evaluate ships it: https://github.com/huggingface/evaluate/blob/main/metrics/squad/compute_score.py
* SQuAD v2.0: ``evaluate-v2.0.py`` of https://rajpurkar.github.io/SQuAD-explorer/, as HF
  datasets ships it: https://github.com/huggingface/datasets/blob/main/metrics/squad_v2/evaluate.py
* MLQA: https://github.com/facebookresearch/MLQA/blob/main/mlqa_evaluation_v1.py
"""

from __future__ import annotations

import re
import string
import sys
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence

# -- SQuAD v1.1 (and HF evaluate's squad) ---------------------------------------------------


def v1_normalize(s: str) -> str:
    """lower -> drop string.punctuation -> articles to a space -> ' '.join(split())."""
    lowered = s.lower()
    exclude = set(string.punctuation)
    no_punc = "".join(ch for ch in lowered if ch not in exclude)
    no_articles = re.sub(r"\b(a|an|the)\b", " ", no_punc)
    return " ".join(no_articles.split())


def v1_f1(prediction: str, ground_truth: str) -> float:
    """0 when no token is shared (so also when either side, or both, are empty)."""
    prediction_tokens = v1_normalize(prediction).split()
    ground_truth_tokens = v1_normalize(ground_truth).split()
    num_same = sum((Counter(prediction_tokens) & Counter(ground_truth_tokens)).values())
    if num_same == 0:
        return 0
    precision = 1.0 * num_same / len(prediction_tokens)
    recall = 1.0 * num_same / len(ground_truth_tokens)
    return (2 * precision * recall) / (precision + recall)


def v1_em(prediction: str, ground_truth: str) -> bool:
    return v1_normalize(prediction) == v1_normalize(ground_truth)


def max_over_ground_truths(
    metric: Callable[[str, str], float], prediction: str, ground_truths: Sequence[str]
) -> float:
    """metric_max_over_ground_truths of the v1.1 and MLQA scripts."""
    return max(metric(prediction, truth) for truth in ground_truths)


# -- SQuAD v2.0 -----------------------------------------------------------------------------


def v2_normalize(s: str) -> str:
    """The same steps as v1.1; the article regex is compiled with re.UNICODE."""
    lowered = s.lower()
    exclude = set(string.punctuation)
    no_punc = "".join(ch for ch in lowered if ch not in exclude)
    no_articles = re.sub(re.compile(r"\b(a|an|the)\b", re.UNICODE), " ", no_punc)
    return " ".join(no_articles.split())


def v2_tokens(s: str) -> list[str]:
    if not s:
        return []
    return v2_normalize(s).split()


def v2_exact(a_gold: str, a_pred: str) -> int:
    return int(v2_normalize(a_gold) == v2_normalize(a_pred))


def v2_f1(a_gold: str, a_pred: str) -> float:
    """If either side is no-answer, 1 when they agree and 0 otherwise."""
    gold_toks = v2_tokens(a_gold)
    pred_toks = v2_tokens(a_pred)
    num_same = sum((Counter(gold_toks) & Counter(pred_toks)).values())
    if len(gold_toks) == 0 or len(pred_toks) == 0:
        return int(gold_toks == pred_toks)
    if num_same == 0:
        return 0
    precision = 1.0 * num_same / len(pred_toks)
    recall = 1.0 * num_same / len(gold_toks)
    return (2 * precision * recall) / (precision + recall)


def v2_raw_scores(golds: Sequence[str], prediction: str) -> tuple[int, float]:
    """get_raw_scores for one question: the golds that normalise to nothing are dropped, an
    unanswerable question's only answer is '', and each score is the max over the golds."""
    gold_answers = [a for a in golds if v2_normalize(a)]
    if not gold_answers:
        gold_answers = [""]
    exact = max(v2_exact(a, prediction) for a in gold_answers)
    f1 = max(v2_f1(a, prediction) for a in gold_answers)
    return exact, f1


def v2_evaluate(
    dataset: Sequence[tuple[str, Sequence[str]]],
    preds: dict[str, str],
    na_probs: dict[str, float] | None = None,
    na_prob_thresh: float = 1.0,
) -> dict[str, float | int]:
    """main() of the v2.0 script on ``dataset`` (qid, raw answer texts) in its order: the
    no-answer threshold, make_eval_dict for all, HasAns and NoAns, and find_all_best_thresh
    when na_probs are given (the --na-prob-file); scores are percentages, as the script's."""
    qid_to_has_ans = {qid: bool(answers) for qid, answers in dataset}
    has_ans_qids = [k for k, v in qid_to_has_ans.items() if v]
    no_ans_qids = [k for k, v in qid_to_has_ans.items() if not v]
    exact_raw: dict[str, float] = {}
    f1_raw: dict[str, float] = {}
    for qid, answers in dataset:
        exact_raw[qid], f1_raw[qid] = v2_raw_scores(answers, preds[qid])
    probs = na_probs if na_probs is not None else dict.fromkeys(preds, 0.0)

    def apply_no_ans_threshold(scores: dict[str, float]) -> dict[str, float]:
        new_scores = {}
        for qid, s in scores.items():
            pred_na = probs[qid] > na_prob_thresh
            new_scores[qid] = float(not qid_to_has_ans[qid]) if pred_na else s
        return new_scores

    exact_thresh = apply_no_ans_threshold(exact_raw)
    f1_thresh = apply_no_ans_threshold(f1_raw)

    def make_eval_dict(qid_list: list[str] | None = None) -> dict[str, float | int]:
        if not qid_list:
            total = len(exact_thresh)
            return {
                "exact": 100.0 * sum(exact_thresh.values()) / total,
                "f1": 100.0 * sum(f1_thresh.values()) / total,
                "total": total,
            }
        total = len(qid_list)
        return {
            "exact": 100.0 * sum(exact_thresh[k] for k in qid_list) / total,
            "f1": 100.0 * sum(f1_thresh[k] for k in qid_list) / total,
            "total": total,
        }

    out_eval = make_eval_dict()
    if has_ans_qids:
        out_eval.update({f"HasAns_{k}": v for k, v in make_eval_dict(has_ans_qids).items()})
    if no_ans_qids:
        out_eval.update({f"NoAns_{k}": v for k, v in make_eval_dict(no_ans_qids).items()})

    def find_best_thresh(scores: dict[str, float]) -> tuple[float, float]:
        num_no_ans = sum(1 for k in qid_to_has_ans if not qid_to_has_ans[k])
        cur_score: float = num_no_ans
        best_score = cur_score
        best_thresh = 0.0
        qid_list = sorted(probs, key=lambda k: probs[k])
        for qid in qid_list:
            if qid not in scores:
                continue
            if qid_to_has_ans[qid]:
                diff = scores[qid]
            elif preds[qid]:
                diff = -1
            else:
                diff = 0
            cur_score += diff
            if cur_score > best_score:
                best_score = cur_score
                best_thresh = probs[qid]
        return 100.0 * best_score / len(scores), best_thresh

    if na_probs is not None:
        out_eval["best_exact"], out_eval["best_exact_thresh"] = find_best_thresh(exact_raw)
        out_eval["best_f1"], out_eval["best_f1_thresh"] = find_best_thresh(f1_raw)
    return out_eval


# -- MLQA -----------------------------------------------------------------------------------

PUNCT = {
    chr(i) for i in range(sys.maxunicode) if unicodedata.category(chr(i)).startswith("P")
}.union(string.punctuation)
WHITESPACE_LANGS = ["en", "es", "hi", "vi", "de", "ar"]
MIXED_SEGMENTATION_LANGS = ["zh"]


def mixed_segmentation(text: str) -> list[str]:
    """Each character of U+4E00..U+9FA5 (or punctuation) a segment; whitespace-split between."""
    segments: list[str] = []
    pending = ""
    for char in text:
        if re.search(r"[\u4e00-\u9fa5]", char) or char in PUNCT:
            if pending != "":
                segments.extend(pending.split())
                pending = ""
            segments.append(char)
        else:
            pending += char
    if pending != "":
        segments.extend(pending.split())
    return segments


#: remove_articles per language: a pattern replaced by a space, or None (Hindi and Chinese
#: "do not have formal articles"). Arabic: the script's pattern, al (U+0627 U+0644) escaped.
MLQA_ARTICLE_PATTERNS = {
    "en": r"\b(a|an|the)\b",
    "es": r"\b(un|una|unos|unas|el|la|los|las)\b",
    "hi": None,
    "vi": r"\b(của|là|cái|chiếc|những)\b",
    "de": r"\b(ein|eine|einen|einem|eines|einer|der|die|das|den|dem|des)\b",
    "ar": "\\s\u0627\u0644^|\u0627\u0644",
    "zh": None,
}


def _mlqa_remove_articles(text: str, lang: str) -> str:
    if lang not in MLQA_ARTICLE_PATTERNS:
        raise ValueError(f"Unknown Language {lang}")
    pattern = MLQA_ARTICLE_PATTERNS[lang]
    return text if pattern is None else re.sub(pattern, " ", text)


def mlqa_normalize(s: str, lang: str) -> str:
    """lower -> drop PUNCT -> the language's articles -> tokens (mixed for zh) -> join."""
    lowered = s.lower()
    no_punc = "".join(ch for ch in lowered if ch not in PUNCT)
    text = _mlqa_remove_articles(no_punc, lang)
    if lang in WHITESPACE_LANGS:
        tokens = text.split()
    elif lang in MIXED_SEGMENTATION_LANGS:
        tokens = mixed_segmentation(text)
    else:
        raise ValueError(f"Unknown Language {lang}")
    return " ".join(t for t in tokens if t.strip() != "")


def mlqa_f1(prediction: str, ground_truth: str, lang: str) -> float:
    prediction_tokens = mlqa_normalize(prediction, lang).split()
    ground_truth_tokens = mlqa_normalize(ground_truth, lang).split()
    num_same = sum((Counter(prediction_tokens) & Counter(ground_truth_tokens)).values())
    if num_same == 0:
        return 0
    precision = 1.0 * num_same / len(prediction_tokens)
    recall = 1.0 * num_same / len(ground_truth_tokens)
    return (2 * precision * recall) / (precision + recall)


def mlqa_em(prediction: str, ground_truth: str, lang: str) -> bool:
    return mlqa_normalize(prediction, lang) == mlqa_normalize(ground_truth, lang)
