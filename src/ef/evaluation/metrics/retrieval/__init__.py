"""The built-in retrieval metrics, one module each, and their per-query semantics.

The per-query reference functions are the readable implementations. Semantics (pinned in
DESIGN §4 and ``docs/semantics.md``; equal to trec_eval 9.0.8 wherever trec_eval defines the
measure):

* ``ranked`` is used in the order given. A doc id that appears again lower down counts only at
  its first (best) rank, so a duplicate can never be rewarded twice.
* ``relevant`` maps doc ids to grades. A grade > 0 is relevant; 0 and negative grades are judged
  non-relevant; a doc missing from ``relevant`` is unjudged and counts as non-relevant.
  Where trec_eval tells them apart (bpref, infAP, ``judged_only``, hole, the RBP residual), a
  negative grade is trec_eval's "pooled but not judged", as trec_eval reads it.
* Graded judgements feed the gain-based metrics: nDCG and DCG as linear gain (the grade
  itself, unless ``gains`` or ``dcg="exp-log2"`` say otherwise), and trec_eval's ndcg_rel,
  rndcg and G, ERR, and RBP with ``graded=True``; every other metric is binary.
* A query with no relevant judgement scores 0.0 on every relevance metric.
* ``k=None`` is the whole ranking (``"ndcg@all"``). Where a metric divides by ``k`` (precision,
  F1, hole), it divides by the number of docs retrieved instead.

Every binary metric takes ``rel`` (the lowest grade that counts as relevant, trec_eval's
``-l``; ``None`` is any grade > 0) and ``judged_only`` (drop the docs without a judgement of 0
or more from the ranking before scoring, trec_eval's ``-J``), both keyword-only.

Each built-in metric is declared in one module (ranx's layout): ``ndcg``, ``dcg``,
``recall``, ``precision``, ``reciprocal_rank``, ``average_precision`` (MAP, and GM_MAP: its
geometric mean), ``r_precision``, ``bpref`` (and GM_BPREF), ``infap``, ``success``, ``f1``,
``capped_recall``, ``judged``, ``hole``, ``counts`` (``num_ret``, ``num_rel``,
``num_rel_ret``, ``num_nonrel_judged_ret``), ``rbp`` (RBP and its residual), ``err``, and the
rest of trec_eval's ``all_trec``: ``iprec_at_recall``, ``iprec_avg`` (11pt_avg),
``rprec_mult``, ``utility``, ``binary_gain`` (binG), ``normalized_gain`` (G), ``ndcg_rel``,
``rndcg`` and ``set_map``.
:mod:`~ef.evaluation.metrics.retrieval.diversity` holds the intent-aware measures over
subtopic qrels (alpha-nDCG, ERR-IA, NRBP, ...): they are not in :data:`BUILTIN`, as their
judgements have another shape; :func:`~ef.evaluation.evaluate_diversity` scores them.
Each holds the metric's readable per-query reference function (``ndcg_at_k``), its numpy
batch form over :class:`~ef.evaluation._hits.JudgedHits` (``ndcg_batch``; for the metrics
most often asked at several cutoffs, one row of their form at every cutoff at once,
``ndcg_cutoffs``), its exact
tie-averaged form where it has a closed one (``ndcg_expected``; for the others,
``tie_policy="expected"`` averages the batch form over the distinct orders of the ties,
:mod:`~ef.evaluation.metrics.retrieval.orders`), its parameters and its
:class:`~ef.evaluation.RetrievalMetric` declaration (``NDCG``); :data:`BUILTIN` lists the
declarations in registration order.
:mod:`~ef.evaluation.metrics.retrieval.kernels` holds the array helpers the batch and
tie-averaged forms share, :mod:`~ef.evaluation.metrics.retrieval.reference` the per-query
ones (and ``guarded``, a reference function's checks),
:mod:`~ef.evaluation.metrics.retrieval.forms` the forms made from others (a tie-averaged form
from the batch form and the metric's part for tied docs, a ``gm_`` variant from its parent),
:mod:`~ef.evaluation.metrics.retrieval.params` the shared parameters. numpy is imported only
when a batch or tie-averaged form runs.
"""

from __future__ import annotations

from ...interfaces import RetrievalMetric
from .average_precision import GM_MAP, MAP, average_precision, gm_average_precision
from .binary_gain import BINARY_GAIN, binary_gain
from .bpref import BPREF, GM_BPREF, bpref, gm_bpref
from .capped_recall import R_CAP, capped_recall_at_k
from .counts import (
    NUM_NONREL_JUDGED_RET,
    NUM_REL,
    NUM_REL_RET,
    NUM_RET,
    num_nonrel_judged_ret,
    num_rel,
    num_rel_ret,
    num_ret,
)
from .dcg import DCG, dcg_at_k
from .err import ERR, err_at_k
from .f1 import F1, f1_at_k
from .hole import HOLE, hole_at_k
from .infap import INFAP, INFAP_EPSILON, inferred_average_precision
from .iprec_at_recall import IPREC_AT_RECALL, iprec_at_recall
from .iprec_avg import IPREC_AVG, iprec_avg
from .judged import JUDGED, judged_at_k
from .ndcg import NDCG, ndcg_at_k
from .ndcg_rel import NDCG_REL, ndcg_rel
from .normalized_gain import NORMALIZED_GAIN, normalized_gain
from .precision import PRECISION, precision_at_k
from .r_precision import RPREC, r_precision
from .rbp import RBP, RBP_RESID, rbp, rbp_residual
from .recall import RECALL, recall_at_k
from .reciprocal_rank import MRR, reciprocal_rank
from .rndcg import RNDCG, rndcg
from .rprec_mult import RPREC_MULT, rprec_mult
from .set_map import SET_MAP, set_map
from .success import SUCCESS, success_at_k
from .utility import UTILITY, utility

__all__ = [
    "BUILTIN",
    "INFAP_EPSILON",
    "average_precision",
    "binary_gain",
    "bpref",
    "capped_recall_at_k",
    "dcg_at_k",
    "err_at_k",
    "f1_at_k",
    "gm_average_precision",
    "gm_bpref",
    "hole_at_k",
    "inferred_average_precision",
    "iprec_at_recall",
    "iprec_avg",
    "judged_at_k",
    "ndcg_at_k",
    "ndcg_rel",
    "normalized_gain",
    "num_nonrel_judged_ret",
    "num_rel",
    "num_rel_ret",
    "num_ret",
    "precision_at_k",
    "r_precision",
    "rbp",
    "rbp_residual",
    "recall_at_k",
    "reciprocal_rank",
    "rndcg",
    "rprec_mult",
    "set_map",
    "success_at_k",
    "utility",
]

#: The built-in retrieval metrics, in registration order (the catalogue's and the docs').
BUILTIN: tuple[RetrievalMetric, ...] = (
    NDCG,
    DCG,
    RECALL,
    PRECISION,
    MRR,
    MAP,
    RPREC,
    BPREF,
    INFAP,
    SUCCESS,
    F1,
    R_CAP,
    JUDGED,
    HOLE,
    NUM_RET,
    NUM_REL,
    NUM_REL_RET,
    RBP,
    RBP_RESID,
    ERR,
    # trec_eval's measures of all_trec (``ef-eval trec_eval``).
    GM_MAP,
    GM_BPREF,
    IPREC_AT_RECALL,
    IPREC_AVG,
    RPREC_MULT,
    UTILITY,
    BINARY_GAIN,
    NORMALIZED_GAIN,
    NDCG_REL,
    RNDCG,
    SET_MAP,
    NUM_NONREL_JUDGED_RET,
)
