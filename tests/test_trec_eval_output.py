"""trec_eval's printed values, formatted in bulk: the same bytes as printf's ``%6.4f``."""

from __future__ import annotations

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st

from ef.evaluation import RunTable
from ef.evaluation._engine.trec_eval import Options, trec_eval_result
from ef.evaluation._engine.trec_vocabulary import TREC_EVAL_CUTOFFS
from ef.evaluation._presentation import trec_names
from ef.evaluation._presentation.trec_names import c_float, trec_eval_lines


def _one_by_one(values: list[float]) -> list[str]:
    return [f"{c_float(v)}\n" for v in values]


# Measures' values: fractions of small counts, and numbers near a rounding half.
fractions = st.builds(lambda a, b: a / b, st.integers(0, 2000), st.integers(1, 2000))
near_halves = st.builds(
    lambda k, nudge: (k + 0.5) / 10000 + nudge,
    st.integers(0, 99999),
    st.sampled_from([0.0, 1e-17, -1e-17, 1e-12, -1e-12, 5e-10, -5e-10]),
)
values = st.lists(
    st.one_of(
        fractions,
        near_halves,
        st.floats(min_value=0, max_value=10),
        st.floats(allow_nan=True, allow_infinity=True),
        st.sampled_from([0.0, -0.0, 9.99995, 9.99994999, 10.0, -float("nan"), 1e300]),
    ),
    max_size=50,
)


@example([0.00005, 0.99995, 9.99995, 0.12345, 0.5, 1.0, 0.0, -0.0])
@given(values)
def test_bulk_floats_print_as_printf_does(column: list[float]) -> None:
    assert trec_names._float_texts(column) == _one_by_one(column)
    assert trec_names._float_texts(np.asarray(column, dtype=np.float64)) == _one_by_one(column)


def test_every_value_of_a_grid_prints_as_printf_does() -> None:
    # Every 1/10000 step and the two floats beside each of its halves.
    halves = (np.arange(100000) + 0.5) / 10000
    grid = np.concatenate(
        [np.arange(100001) / 10000, halves, np.nextafter(halves, 0), np.nextafter(halves, 1)]
    )
    assert trec_names._float_texts(grid) == _one_by_one(grid.tolist())


def test_output_comes_in_pieces_of_whole_lines(monkeypatch) -> None:
    run = RunTable.from_dict({f"q{i}": {"d1": 2.0, "d2": 1.0} for i in range(7)})
    qrels = {f"q{i}": {"d2": 1} for i in range(7)}
    result = trec_eval_result(
        run, qrels, ["P.1,2", "map", "relstring"], Options(per_query=True), runid="r"
    )
    whole = "".join(trec_eval_lines(result))
    monkeypatch.setattr(trec_names, "_LINES_PER_PIECE", 5)  # a piece: one query's 4 lines
    pieces = list(trec_eval_lines(result))
    assert "".join(pieces) == whole
    assert len(pieces) == 7 + 1  # the queries' pieces, then the summary
    assert all(piece.endswith("\n") for piece in pieces)
    assert whole.splitlines()[:4] == [
        "map                   \tq0\t0.5000",
        "P_1                   \tq0\t0.0000",
        "P_2                   \tq0\t0.5000",
        "relstring             \tq0\t'-1'",  # d1 unjudged, d2 graded 1
    ]


def test_only_the_measures_asked_for_are_computed(monkeypatch) -> None:
    from ef.evaluation._engine import trec_eval

    computed: list[str] = []
    values = trec_eval._values

    def spy(col, *args, **kwargs):
        if col.measure is not None:
            computed.append(col.name)
        return values(col, *args, **kwargs)

    monkeypatch.setattr(trec_eval, "_values", spy)
    run = RunTable.from_dict({"q1": {"d1": 2.0, "d2": 1.0}})
    qrels = {"q1": {"d2": 1}}
    for specs, names in [
        (["map"], ["map"]),
        (["P.10", "ndcg_cut"], ["P_10", *(f"ndcg_cut_{k}" for k in TREC_EVAL_CUTOFFS)]),
    ]:
        computed.clear()
        trec_eval_result(run, qrels, specs, Options(), runid="r")
        assert computed == names
    computed.clear()
    trec_eval_result(run, qrels, ["all_trec"], Options(), runid="r")
    assert len(computed) > 80  # every measure of all_trec
