"""Hypothesis strategies for rankings and graded judgements."""

from __future__ import annotations

from hypothesis import strategies as st

#: A small doc-id alphabet, so rankings and judgements overlap often.
doc_ids = st.sampled_from([f"d{i}" for i in range(12)])

#: Graded judgements, trec_eval-style integer grades including 0 and negative ("judged
#: non-relevant") ones.
judgements = st.dictionaries(doc_ids, st.integers(min_value=-1, max_value=3), max_size=10)

#: A ranking without duplicates, as trec_eval requires.
rankings = st.lists(doc_ids, unique=True, max_size=12)

cutoffs = st.integers(min_value=1, max_value=15)

#: Values for every parameter a built-in retrieval metric takes; each example draws one per parameter.
PARAMETERS = {
    "rel": st.sampled_from([None, 1.0, 2.0, 0.5, 3.0]),
    "judged_only": st.booleans(),
    "gains": st.sampled_from(
        [None, {0: 0.5, 1: 1.0, 2: 3.0}, {1: 3.0, 2: 9.0, 3: 4.5}, {2: 0.0, -1: 1.0}, {1: -1.0}]
    ),
    "dcg": st.sampled_from(["log2", "exp-log2"]),
    "p": st.sampled_from([0.5, 0.8, 0.9, 0.95]),
    "max_grade": st.sampled_from([4.0, 3.0, 1.0]),
    "graded": st.booleans(),
    # trec_eval's all_trec measures (ef-eval trec_eval).
    "beta2": st.sampled_from([1.0, 0.5, 2.0, 0.0]),
    "recall": st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.6, 0.95, 1.0]),
    "rounding": st.sampled_from(["plus0.9", "lround"]),
    "nan_if_empty": st.booleans(),
    "recalls": st.sampled_from(
        ["0.0,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1.0", "0.25,0.5,0.75", "0.5,0.2,1"]
    ),
    "mult": st.sampled_from([1.0, 0.2, 0.5, 1.4, 2.0]),
    "rel_ret": st.sampled_from([1.0, 2.0, 0.5]),
    "nonrel_ret": st.sampled_from([-1.0, 0.0, -0.5]),
    "rel_unret": st.sampled_from([0.0, -1.0]),
    "nonrel_unret": st.sampled_from([0.0, 0.25]),
    "collection": st.sampled_from([0, 100]),
}
