"""The pytest plugin of ef-evaluation: the ``ef_quality`` fixture and the gates' summary.

Registered through the ``pytest11`` entry point ``ef_evaluation``, so it loads in every
pytest run of every user: it imports nothing heavy (no numpy, no scipy) until a gate runs.

* ``ef_quality``: the :class:`~ef.evaluation.quality.QualityGates` of the test;
* ``--ef-update-baselines``: rewrite the stored baselines instead of checking them;
* ``--ef-gates-json=PATH``: write every gate that ran as JSON, for CI dashboards;
* ``--ef-record``: ``ef_quality.record_evaluation(report, system=...)`` records the report
  in the store of evaluations (it does nothing without the option);
* ``--ef-store=URL`` (or ini ``ef_store``): that store, and the one ``not_worse(...,
  recorded=...)`` reads; by default ``EF_EVALUATION_STORE``, else the default SQLite file;
* ini ``ef_baselines_dir``: where the baselines live (``tests/ef_baselines`` under rootdir).

Each gate is also a ``ef_gate`` user property of its test (JSON), so ``--junitxml`` holds it,
and the terminal summary lists them all.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from .gates import GateResult, QualityGates

__all__ = ["PROPERTY", "ef_quality"]

#: The name of the user property (and JUnit property) each gate's result is recorded under.
PROPERTY = "ef_gate"
_DEFAULT_DIR = "tests/ef_baselines"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("ef-evaluation", "ef-evaluation quality gates")
    group.addoption(
        "--ef-update-baselines",
        action="store_true",
        default=False,
        help="ef_quality.baseline() writes the baselines from this run instead of checking them",
    )
    group.addoption(
        "--ef-gates-json",
        metavar="PATH",
        default=None,
        help="write every ef quality gate that ran (test, metric, value, threshold, status) "
        "to PATH as JSON",
    )
    group.addoption(
        "--ef-record",
        action="store_true",
        default=False,
        help="ef_quality.record_evaluation() records its reports in the store of evaluations "
        "(--ef-store); without it, it records nothing",
    )
    group.addoption(
        "--ef-store",
        metavar="URL",
        default=None,
        help="the store of evaluations to record in and read recorded baselines from: a "
        "SQLite file, sqlite:///path or postgresql://... (default: ini ef_store, else "
        "$EF_EVALUATION_STORE, else the default SQLite file)",
    )
    parser.addini(
        "ef_store",
        help="the store of evaluations of --ef-store, when the option is not given",
        default="",
    )
    parser.addini(
        "ef_baselines_dir",
        help=f"folder of the ef_quality baselines, relative to rootdir (default {_DEFAULT_DIR})",
        default=_DEFAULT_DIR,
    )


def pytest_configure(config: pytest.Config) -> None:
    # The recorder holds this session's gates: a report has no config of its own.
    config.pluginmanager.register(_Recorder(config), "ef_evaluation_gates")


@pytest.fixture
def ef_quality(request: pytest.FixtureRequest) -> QualityGates:
    """Quality gates for this test: ``check`` (thresholds), ``baseline`` (a stored report)
    and ``not_worse`` (a significance test, against a report, a stored baseline or a
    recorded system); see :doc:`/quality-gates`. ``record_evaluation`` records a report
    under ``--ef-record`` (:doc:`/experiments`).

    .. code-block:: python

        def test_quality(ef_quality):
            report = evaluate_run("run.trec", "qrels.txt")
            ef_quality.check(report, {"ndcg@10": ">= 0.65"})
    """
    from .gates import QualityGates

    config = request.config
    folder = Path(str(config.getini("ef_baselines_dir")) or _DEFAULT_DIR)

    def record(result: GateResult) -> None:
        # What record_property does, without its warning under junit_family xunit2 (the
        # default): --junitxml writes every user property of the test case.
        request.node.user_properties.append(
            (PROPERTY, json.dumps(result.to_dict(), allow_nan=False))
        )

    return QualityGates(
        config.rootpath / folder,
        update=bool(config.getoption("ef_update_baselines")),
        record=record,
        test_id=request.node.nodeid,
        store=config.getoption("ef_store") or str(config.getini("ef_store")) or None,
        recording=bool(config.getoption("ef_record")),
    )


def _line(gate: dict[str, Any]) -> str:
    value = gate["value"]
    shown = "-" if value is None else f"{value:.4f}"
    text = (
        f"{gate['status'].upper():<7} {gate['test_id']} {gate['gate']} "
        f"{gate['metric']} = {shown} {gate['expected']}"
    )
    return f"{text}: {gate['detail']}" if gate["detail"] else text


class _Recorder:
    """Collects the gates of one session from its test reports, then shows and writes them."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.gates: list[dict[str, Any]] = []

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        # The teardown report carries every property of the test, on an xdist controller too.
        if report.when == "teardown":
            self.gates += [
                json.loads(str(value)) for name, value in report.user_properties if name == PROPERTY
            ]

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if not self.gates:
            return
        terminalreporter.write_sep("=", "ef quality gates")
        for gate in self.gates:
            terminalreporter.write_line(_line(gate))
        failed = sum(gate["status"] == "fail" for gate in self.gates)
        terminalreporter.write_line(
            f"{len(self.gates)} gates: {len(self.gates) - failed} passed, {failed} failed"
        )

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        target = self.config.getoption("ef_gates_json")
        if not target or hasattr(self.config, "workerinput"):  # xdist: the controller writes
            return
        failed = sum(gate["status"] == "fail" for gate in self.gates)
        document = {"gates": self.gates, "total": len(self.gates), "failed": failed}
        _write_atomically(Path(self.config.invocation_params.dir, target), document)


def _write_atomically(path: Path, document: dict[str, Any]) -> None:
    from .._formats._io import atomic_binary_writer  # as every writer: see save_report

    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_binary_writer(path) as out:
        out.write((json.dumps(document, indent=2) + "\n").encode("utf-8"))
