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
