"""The options of a significance test are one value, named and defaulted in one place: the
types' aliases, the tuples checked at run time, ``compare``'s keywords, ``Experiment``'s
fields and the CLI's ``--test`` and ``--correction`` all agree with it."""

from __future__ import annotations

import inspect
from typing import get_args

import attrs
import click
import pytest

from ef.evaluation import Experiment, build_site, compare
from ef.evaluation._engine import stats
from ef.evaluation._engine.significance import CORRECTIONS, PAIRED_TESTS, TESTS, Significance
from ef.evaluation._site.stats import Options
from ef.evaluation.cli import cli
from ef.evaluation.errors import ArgumentError
from ef.evaluation.types import Correction, PairedTest, SignificanceTest

_FIELDS = [field.name for field in attrs.fields(Significance)]


def test_the_names_of_the_tests_are_the_aliases() -> None:
    assert (
        get_args(PairedTest)
        == PAIRED_TESTS
        == ("paired-t", "wilcoxon", "randomization", "bootstrap")
    )
    assert get_args(SignificanceTest) == TESTS == (*PAIRED_TESTS, "tukey")
    assert get_args(Correction) == CORRECTIONS == ("bonferroni", "holm", "bh")
    # The statistics read the same tuples.
    assert (stats.PAIRED_TESTS, stats.TESTS, stats.CORRECTIONS) == (
        PAIRED_TESTS,
        TESTS,
        CORRECTIONS,
    )


def test_compare_and_experiment_default_as_the_value_does() -> None:
    defaults = Significance()
    compared = inspect.signature(compare).parameters
    assert {name: compared[name].default for name in _FIELDS} == attrs.asdict(defaults)
    experiment = {field.name: field.default for field in attrs.fields(Experiment)}
    assert {name: experiment[name] for name in _FIELDS} == attrs.asdict(defaults)


def test_the_site_defaults_as_the_value_does_but_for_its_fixed_seed() -> None:
    defaults = attrs.asdict(Significance())
    del defaults["seed"]
    built = inspect.signature(build_site).parameters
    assert {name: built[name].default for name in defaults} == defaults
    assert "seed" not in built
    options = {field.name: field.default for field in attrs.fields(Options)}
    assert {name: options[name] for name in defaults} == defaults
    assert options["seed"] == 0  # the same records build the same site


@pytest.mark.parametrize("command", ["compare", "experiment", "site"])
def test_the_cli_offers_the_values_tests_and_defaults(command: str) -> None:
    options = {
        param.name: param
        for param in cli.get_command(click.Context(cli), command).params  # type: ignore[union-attr]
    }
    assert list(options["test"].type.choices) == list(TESTS)  # type: ignore[union-attr]
    assert list(options["correction"].type.choices) == ["none", *CORRECTIONS]  # type: ignore[union-attr]
    defaults = Significance()
    assert options["test"].default == defaults.test
    assert options["alpha"].default == defaults.alpha
    assert options["n_resamples"].default == defaults.n_resamples
    assert ("seed" in options) == (command != "site")  # a site's seed is fixed at 0


@pytest.mark.parametrize(
    ("given", "error", "message"),
    [
        ({"test": "t"}, ValueError, "test must be one of paired-t, wilcoxon, randomization, "),
        ({"correction": "fdr"}, ValueError, "correction must be None or one of bonferroni, "),
        ({"test": "tukey", "correction": "bh"}, ArgumentError, "takes no correction"),
        ({"alpha": 0}, ValueError, "alpha must be a number between 0 and 1, got 0"),
        ({"alpha": True}, ValueError, "alpha must be a number between 0 and 1, got True"),
        ({"n_resamples": 2.0}, ValueError, "n_resamples must be a positive int, got 2.0"),
        ({"seed": True}, ValueError, "seed must be None or a non-negative int, got True"),
        # The order of compare's checks: the test first, then the correction, the numbers.
        ({"test": "t", "alpha": 2}, ValueError, "test must be one of"),
        ({"correction": "x", "seed": -1}, ValueError, "correction must be None"),
        ({"alpha": 2, "seed": -1}, ValueError, "alpha must be"),
    ],
)
def test_a_bad_option_is_refused_as_compare_refuses_it(
    given: dict[str, object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        Significance(**given)  # type: ignore[arg-type]
    with pytest.raises(error, match=message):
        compare({"a": {"q": ["d"]}, "b": {"q": ["d"]}}, {"q": {"d": 1}}, **given)  # type: ignore[arg-type]


def test_a_good_value_is_held_as_given() -> None:
    value = Significance(test="bootstrap", correction="holm", alpha=0.01, n_resamples=99, seed=0)
    assert attrs.asdict(value) == {
        "test": "bootstrap",
        "correction": "holm",
        "alpha": 0.01,
        "n_resamples": 99,
        "seed": 0,
    }
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        value.alpha = 0.5  # type: ignore[misc]


def test_an_experiments_options_are_read_into_one_value() -> None:
    experiment = Experiment(
        {"a": lambda query, *, limit: ["d"], "b": lambda query, *, limit: ["d"]},
        ({"q": "text"}, {"q": {"d": 1}}),
        test="wilcoxon",
        correction="bh",
        alpha=0.1,
        n_resamples=7,
        seed=5,
    )
    assert Significance.of(experiment) == Significance(
        test="wilcoxon", correction="bh", alpha=0.1, n_resamples=7, seed=5
    )
