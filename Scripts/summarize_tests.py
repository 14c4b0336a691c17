#!/usr/bin/env python3
"""Prints the closing summary of a test run from the runners' JUnit XML reports.

    summarize_tests.py [--step NAME=STATUS]... REPORT.xml...

Reads every report (XCTest's and Swift Testing's `--xunit-output`, pytest's `--junitxml`), lists the failing tests by
name, and ends with exactly one line: `N passed, M failed`. A report that is missing or unreadable counts as a
failure (its runner crashed or never ran), and so does a `--step` whose STATUS is not 0 when its report shows no
failure of its own (a build that failed, a runner that exited non-zero; a step's reports are those whose file
name starts with the step's name). Exit status: 0 only when nothing failed.
Standard library only: it runs before, and without, any installed package.
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Tally:
    passed: int = 0
    skipped: int = 0
    failed: list[str] = field(default_factory=list)


def read_report(path: Path, tally: Tally) -> int:
    """Adds the report's test cases to `tally`; returns how many of them failed."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as error:
        tally.failed.append(f"{path.name}: no readable report ({error.__class__.__name__}): the runner crashed or did not run")
        return 1
    failures = 0
    for case in root.iter("testcase"):
        name = ".".join(part for part in (case.get("classname", ""), case.get("name", "?")) if part)
        if case.find("failure") is not None or case.find("error") is not None:
            tally.failed.append(name)
            failures += 1
        elif case.find("skipped") is not None:
            tally.skipped += 1
        else:
            tally.passed += 1
    return failures


def main(arguments: list[str]) -> int:
    steps: list[tuple[str, int]] = []
    reports: list[Path] = []
    iterator = iter(arguments)
    for argument in iterator:
        if argument == "--step":
            name, _, status = next(iterator, "=").partition("=")
            steps.append((name, int(status) if status.lstrip("-").isdigit() else 1))
        else:
            reports.append(Path(argument))

    tally = Tally()
    failures_by_report = {report.name: read_report(report, tally) for report in reports}
    for name, status in steps:
        # A step's own report already names its failing tests; report the step only when it failed otherwise.
        own_failures = sum(count for report, count in failures_by_report.items() if report.startswith(name))
        if status != 0 and own_failures == 0:
            tally.failed.append(f"{name}: exited with status {status}")

    if tally.failed:
        print("Failing tests:")
        for name in tally.failed:
            print(f"  ✗ {name}")
    if tally.skipped:
        print(f"({tally.skipped} skipped)")
    print(f"{tally.passed} passed, {len(tally.failed)} failed")
    return 1 if tally.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
