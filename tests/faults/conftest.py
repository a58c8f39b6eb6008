"""Fault-suite hooks: the ``faultgroup`` marker and the "faults: <group>: tried N, passed M"
summary lines at the end of the run."""

from __future__ import annotations

from typing import Any

import pytest

from tests.faults import tally


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "faultgroup(name): a fault trial counted in the group's summary line")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]) -> Any:
    report = yield
    marker = item.get_closest_marker("faultgroup")
    if marker is None:
        return report
    counted = report.when == "call" or (report.when == "setup" and not report.passed)
    if counted:
        ok = report.passed and not hasattr(report, "wasxfail")
        tally.record(str(marker.args[0]), ok)
    return report


def pytest_terminal_summary(terminalreporter: Any) -> None:
    lines = tally.summary_lines()
    if lines:
        terminalreporter.section("fault suite")
        for line in lines:
            terminalreporter.write_line(line)
