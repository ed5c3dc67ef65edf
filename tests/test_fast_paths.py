"""The fast paths added for retrieval overhead give what the general code gives.

ranking() takes C-level passes for lists of doc-id strings and (str, score) pairs,
JudgedHits.from_rankings() finds judged docs by set intersection, evaluate_run() scores
ranked lists without building a RunTable, and ef-eval retrieve scores the rankings of
retrieve() without checking them again: each is checked here against the general code on
generated inputs.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from itertools import islice
from typing import Any

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from ef.evaluation import InputWarning
from ef.evaluation._engine.results import ranking, result_doc_id
from ef.evaluation._engine.scoring import _plain_floats
from ef.evaluation._hits import JudgedHits

from .profiles_hypothesis import examples

IDS = st.sampled_from(["d1", "d2", "d3", "d10", "x"])
RESULTS = st.one_of(
    IDS,
    st.tuples(IDS, st.floats(allow_nan=False)),
    st.tuples(IDS, st.floats(allow_nan=False), st.just(1)),  # not a pair
    st.tuples(st.integers(0, 3), st.floats(allow_nan=False)),  # an int id
    st.builds(lambda i: {"_id": i}, IDS),
    st.integers(0, 3),
)


def reference_ranking(results: list[Any], limit: int) -> list[str]:
    ranked: dict[str, None] = {}
    for result in islice(results, limit):
        ranked.setdefault(result_doc_id(result), None)
    return list(ranked)


@given(st.lists(RESULTS, max_size=12), st.integers(1, 15))
def test_ranking_is_the_per_result_definition(results, limit) -> None:
    try:
        expected = reference_ranking(results, limit)
    except TypeError:
        with pytest.raises(TypeError, match="cannot find a doc id"):
            ranking(results, limit)
        return
    assert ranking(results, limit) == expected
    assert ranking(iter(results), limit) == expected


def test_the_fast_shapes_keep_the_best_rank() -> None:
    assert ranking([("d2", 0.9), ("d1", 0.5), ("d2", 0.4)], 10) == ["d2", "d1"]
    assert ranking(["d2", "d1", "d2", "d3"], 3) == ["d2", "d1"]
    assert ranking([("d2", 0.9), (7, 0.5)], 10) == ["d2", "7"]  # the general path
    with pytest.raises(TypeError, match=r"retriever result \('d1', 0.5, 0\) \(tuple\)"):
        ranking([("d2", 0.9), ("d1", 0.5, 0)], 10)


def reference_hits(rankings, judgements) -> JudgedHits:
    query, rank, grade = [], [], []
    for i, (ranked, judged) in enumerate(zip(rankings, judgements, strict=True)):
        for r, doc in enumerate(ranked, start=1):
            if doc in judged:
                query.append(i)
                rank.append(r)
                grade.append(judged[doc])
    return JudgedHits.build(
        len(rankings), query, rank, grade, judgements, n_retrieved=[len(r) for r in rankings]
    )


DOCS = [f"d{i}" for i in range(30)]


@given(
    st.lists(
        st.tuples(
            st.lists(st.sampled_from(DOCS), unique=True, max_size=25),
            st.dictionaries(st.sampled_from(DOCS), st.integers(-1, 3), max_size=20),
        ),
        max_size=6,
    )
)
def test_judged_hits_from_rankings_is_the_per_doc_walk(pairs) -> None:
    rankings = [ranked for ranked, _ in pairs]
    judgements = [judged for _, judged in pairs]
    fast, slow = (
        JudgedHits.from_rankings(rankings, judgements),
        reference_hits(rankings, judgements),
    )
    for name in ("query", "rank", "grade", "n_relevant", "ideal", "ideal_offsets"):
        assert np.array_equal(getattr(fast, name), getattr(slow, name)), name


def test_plain_floats_checks_arrays_and_lists_alike() -> None:
    assert _plain_floats(np.array([0.5, 1.0]), [0.5, 1.0])
    assert not _plain_floats(np.array([0.5, np.nan]), [0.5, float("nan")])
    assert _plain_floats(None, [0.5, 1.0])
    assert not _plain_floats(None, [0.5, 1])
    assert not _plain_floats(np.array([1, 2]), [1, 2])  # an int array: the full check decides


@pytest.mark.filterwarnings("ignore::ef.evaluation.InputWarning")  # random partial runs
@given(
    st.dictionaries(
        st.sampled_from(["q1", "q2", "q3", "q4"]),
        st.lists(st.sampled_from(DOCS[:12]), max_size=15),
        max_size=4,
    ),
    st.dictionaries(
        st.sampled_from(["q1", "q2", "q3", "q5"]),
        st.dictionaries(st.sampled_from(DOCS[:12]), st.integers(0, 2), min_size=1, max_size=6),
        min_size=1,
        max_size=4,
    ),
)
def test_evaluate_run_scores_ranked_lists_as_their_run_table(run, qrels) -> None:
    from ef.evaluation import RunTable, evaluate_run

    if not any(g > 0 for judged in qrels.values() for g in judged.values()):
        return
    metrics = ("ndcg@3", "recall@10", "map@5", "mrr@10", "precision@2")
    for averaging in ("qrels", "intersection"):
        try:
            expected = evaluate_run(
                RunTable.from_dict(run), qrels, metrics=metrics, averaging=averaging
            )
        except ValueError as refused:  # no query, or no judged doc, to score: refused alike
            with pytest.raises(ValueError, match=re.escape(str(refused))):
                evaluate_run(run, qrels, metrics=metrics, averaging=averaging)
            continue
        assert evaluate_run(run, qrels, metrics=metrics, averaging=averaging) == expected


def _outcome(score: Callable[[], object]) -> tuple[object, list[tuple[type, str, str]]]:
    """What a scoring call gives: its report or its ValueError's message, and its warnings
    (category, message, and the file they point at)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = score()
        except ValueError as exc:
            result = f"ValueError: {exc}"
    return result, [(w.category, str(w.message), w.filename) for w in caught]


ANSWERS = st.lists(
    st.one_of(
        st.sampled_from(DOCS[:12]),
        st.tuples(st.sampled_from(DOCS[:12]), st.floats(allow_nan=False)),
    ),
    max_size=15,
)


@st.composite
def answers_and_qrels(draw: st.DrawFn) -> tuple[dict[str, list[Any]], dict[str, dict[str, int]]]:
    """A retriever's answers and qrels. Drawn apart, about half share no query with a
    relevant doc ("no query can be scored") and few warn; so, unless a draw of 0 to 2 is 2
    (hypothesis favours and shrinks towards 0), a query of the answers is given a relevant
    doc in qrels: 60% of examples give a report, 24% warn, 8% an error (measured with
    --hypothesis-show-statistics, EF_HYPOTHESIS=large; before, 45%, 2% and 44%)."""
    answers = draw(
        st.dictionaries(st.sampled_from(["q1", "q2", "q3", "q4"]), ANSWERS, min_size=1, max_size=4)
    )
    qrels = draw(
        st.dictionaries(
            st.sampled_from(["q1", "q2", "q3", "q5"]),
            st.dictionaries(st.sampled_from(DOCS[:12]), st.integers(0, 2), min_size=1, max_size=6),
            min_size=1,
            max_size=4,
        )
    )
    if draw(st.integers(0, 2)) != 2:
        query = draw(st.sampled_from(sorted(answers)))
        doc = draw(st.sampled_from(DOCS[:12]))
        qrels[query] = {**qrels.get(query, {}), doc: draw(st.integers(1, 2))}
    return answers, qrels


@settings(max_examples=examples(300))
@given(
    answers_and_qrels(),
    st.integers(1, 12),
    st.sampled_from(
        [
            ("ndcg@3", "recall@10", "map@5", "mrr@10", "precision@2"),
            ("map@all", "num_ret", "P(rel=2)@5", "ndcg_cut.10", "success@1"),
        ]
    ),
)
def test_ef_eval_retrieve_scores_its_rankings_as_evaluate_run(answers_qrels, limit, metrics):
    """ef-eval retrieve's path (retrieve(), then evaluate_retrieved() on rankings it does not
    check again) gives evaluate_run()'s report, its error or its warnings, exactly."""
    answers, qrels = answers_qrels
    from ef.evaluation import evaluate_run, retrieve
    from ef.evaluation._evaluate.run import evaluate_retrieved

    def search(query, *, limit):
        return answers[query][:limit]

    rankings = retrieve(search, {q: q for q in answers}, limit=limit).rankings
    k_values = (1, 5, limit)
    checked = _outcome(lambda: evaluate_run(rankings, qrels, metrics=metrics, k_values=k_values))
    fast = _outcome(lambda: evaluate_retrieved(rankings, qrels, metrics=metrics, k_values=k_values))
    assert fast == checked
    report, notices = checked
    event("an error" if isinstance(report, str) else "warned" if notices else "a report")
    assert all(filename == __file__ for _, _, filename in notices)  # the caller, for both


def test_evaluate_retrieved_checks_the_qrels_and_the_overlap() -> None:
    from ef.evaluation._evaluate.run import evaluate_retrieved

    with pytest.raises(ValueError, match=r"qrels\['q1'\]\['d1'\] = nan"):
        evaluate_retrieved({"q1": ("d1",)}, {"q1": {"d1": float("nan")}})
    with pytest.raises(ValueError, match="likely cause: every run id starts with 'Q'"):
        evaluate_retrieved({"Q1": ("d1",)}, {"1": {"d1": 1}})
    with pytest.warns(InputWarning, match="answers only 1 of the 3 judged queries"):
        evaluate_retrieved({"q1": ("d1",)}, {f"q{i}": {"d1": 1} for i in (1, 2, 3)})


# RankedResults: the answers of ef's own retrievers carry their doc ids, which ranking()
# takes as they are; any change to the list forgets them, so the general path reads it.
CHANGES = [
    lambda a: a.append(("d9", 0.0)),
    lambda a: a.extend([("d9", 0.0)]),
    lambda a: a.insert(0, ("d9", 0.0)),
    lambda a: a.pop(),
    lambda a: a.remove(a[0]),
    lambda a: a.clear(),
    lambda a: a.sort(),
    lambda a: a.reverse(),
    lambda a: a.__setitem__(0, ("d9", 0.0)),
    lambda a: a.__setitem__(slice(0, 1), []),
    lambda a: a.__delitem__(0),
    lambda a: a.__iadd__([("d9", 0.0)]),
    lambda a: a.__imul__(2),
]


@given(st.lists(IDS, min_size=1, max_size=8, unique=True), st.integers(1, 10))
def test_ranked_results_rank_as_the_plain_list(ids, limit) -> None:
    from ef.evaluation._engine.results import ranked_ids
    from ef.evaluation.types import RankedResults

    pairs = [(doc, float(-i)) for i, doc in enumerate(ids)]
    answer = RankedResults(pairs, doc_ids=tuple(ids))
    assert answer == pairs
    assert ranking(answer, limit) == ranking(pairs, limit) == ids[:limit]
    assert ranked_ids(answer, limit) == tuple(ids[:limit])
    # A doc_id= function is the caller's rule: the carried ids do not apply.
    assert ranking(answer, limit, lambda r: r[0].upper()) == [d.upper() for d in ids[:limit]]


@pytest.mark.parametrize("change", CHANGES)
def test_a_changed_answer_forgets_its_ids(change) -> None:
    from ef.evaluation.types import RankedResults

    answer = RankedResults([("d1", 2.0), ("d2", 1.0), ("d1", 0.5)][:2], doc_ids=("d1", "d2"))
    change(answer)
    assert answer.doc_ids is None
    assert ranking(answer, 10) == reference_ranking(list(answer), 10)


def test_a_pickled_answer_keeps_its_ids_and_a_wrong_length_is_refused() -> None:
    import pickle

    from ef.evaluation.types import RankedResults

    answer = RankedResults([("d1", 2.0)], doc_ids=("d1",))
    copy = pickle.loads(pickle.dumps(answer))
    assert (copy, copy.doc_ids, type(copy)) == (answer, ("d1",), RankedResults)
    with pytest.raises(ValueError, match="2 doc ids for 1 results"):
        RankedResults([("d1", 2.0)], doc_ids=("d1", "d2"))


@pytest.mark.retrievers
def test_bm25_answers_carry_the_ids_of_their_pairs() -> None:
    pytest.importorskip("bm25s", reason="the BM25 baseline (the bm25 extra)")
    from ef.evaluation import BM25Retriever, read_dataset
    from ef.evaluation._formats.demo import demo_path
    from ef.evaluation.types import RankedResults

    corpus, queries, _ = read_dataset(demo_path())
    bm25 = BM25Retriever(corpus)
    answers = bm25.search_batch([*queries.values(), "zzzz"], 7)  # the last matches nothing
    assert answers[-1] == []
    assert sum(map(bool, answers)) > len(answers) // 2
    for answer in filter(None, answers):  # a query with no indexed term gets []
        assert isinstance(answer, RankedResults)
        assert answer.doc_ids == tuple(doc for doc, _ in answer)
        assert len(set(answer.doc_ids)) == len(answer)


@pytest.mark.retrievers
def test_bm25s_answers_carry_ids_only_when_the_index_ids_are_unique() -> None:
    bm25s_lib = pytest.importorskip("bm25s", reason="the bm25 extra")
    from ef.evaluation import adapters, retrieve
    from ef.evaluation.types import RankedResults

    texts = ["cats purr", "cats and dogs", "dogs bark", "cats sleep"]
    index = bm25s_lib.BM25()
    index.index(bm25s_lib.tokenize(texts, show_progress=False), show_progress=False)
    unique = adapters.bm25s(index, corpus_ids=["a", "b", "c", "d"])
    answer = unique.search("cats", 10)
    assert type(answer) is RankedResults
    assert answer.doc_ids == tuple(answer)
    # Passages of one document share its id: the engine de-duplicates them as for any list.
    passages = adapters.bm25s(index, corpus_ids=["a", "a", "c", "a"])
    assert type(passages.search("cats", 10)) is list
    ranked = retrieve(passages, {"q": "cats"}, limit=10).rankings["q"]
    assert ranked == ("a",)
