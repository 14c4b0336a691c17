"""Scripts/tsan_reports.py reads ThreadSanitizer's reports, tells library reports from the tests' and the
toolchain's, and fails only on the library's."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from repository import REPO

spec = importlib.util.spec_from_file_location("tsan_reports", REPO / "Scripts" / "tsan_reports.py")
tsan_reports = importlib.util.module_from_spec(spec)
sys.modules["tsan_reports"] = tsan_reports  # dataclasses look their module up there
spec.loader.exec_module(tsan_reports)


def report(kind: str, first: str, second: str, summary: str) -> str:
    return f"""==================
WARNING: ThreadSanitizer: {kind} (pid=42)
  Write of size 8 at 0x7b0400000010 by thread T2:
    #0 {first} (UnidirectionalPackageTests.xctest+0x10)
    #1 swift_task_run <null> (libswift_Concurrency.so+0x20)

  Previous read of size 8 at 0x7b0400000010 by thread T1:
    #0 {second} (UnidirectionalPackageTests.xctest+0x30)

SUMMARY: ThreadSanitizer: {kind} {summary}
==================
"""


LIBRARY = report(
    "data race", "$s14Unidirectional5StoreC4send /work/repo/Sources/Unidirectional/Store/Store.swift:10:5",
    "$s14Unidirectional5StoreC5state /work/repo/Sources/Unidirectional/Store/Store.swift:20:7",
    "/work/repo/Sources/Unidirectional/Store/Store.swift:10:5 in $s14Unidirectional5StoreC4send")
TEST = report(
    "Swift access race", "$s5Tests3boxyyF /work/repo/Tests/UnidirectionalTests/Box.swift:3:1",
    "$s5Tests3boxyyF /work/repo/Tests/UnidirectionalTests/Box.swift:4:1",
    "/work/repo/Tests/UnidirectionalTests/Box.swift:3:1 in $s5Tests3boxyyF")
RAN = "✔ Test run with 3 tests passed after 0.1 seconds.\n"
# A closure's frames and summary often have no line number.
CLOSURE = report(
    "Swift access race", "$s5Tests1fyyFyyYbcfU_ /work/repo/Tests/UnidirectionalTests/Race.swift",
    "$s5Tests1fyyFyyYbcfU_ /work/repo/Tests/UnidirectionalTests/Race.swift",
    "/work/repo/Tests/UnidirectionalTests/Race.swift in $s5Tests1fyyFyyYbcfU_")


def test_a_report_whose_first_repository_frame_is_under_sources_comes_from_the_library() -> None:
    [parsed] = tsan_reports.parse(LIBRARY)
    assert (parsed.kind, parsed.where, parsed.origin) == (
        "data race", "Sources/Unidirectional/Store/Store.swift:10:5", "library")


def test_frames_and_summaries_without_a_line_are_read() -> None:
    [parsed] = tsan_reports.parse(CLOSURE)
    assert (parsed.where, parsed.origin) == ("Tests/UnidirectionalTests/Race.swift", "tests")


def test_repeats_are_counted_once_and_test_code_is_told_apart() -> None:
    reports = tsan_reports.parse(LIBRARY + TEST + TEST)
    assert [(r.origin, r.count) for r in reports] == [("library", 1), ("tests", 2)]


def test_the_exit_status_fails_on_library_reports_and_on_a_log_where_nothing_ran(tmp_path: Path) -> None:
    log = tmp_path / "tsan.log"
    log.write_text(TEST + RAN)
    assert tsan_reports.main([str(log)]) == 0
    log.write_text(LIBRARY + RAN)
    assert tsan_reports.main([str(log)]) == 1
    log.write_text("error: build failed\n")
    assert tsan_reports.main([str(log)]) == 1
