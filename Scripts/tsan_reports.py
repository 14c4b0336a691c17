#!/usr/bin/env python3
"""Summarizes the ThreadSanitizer reports in a `swift test --sanitize=thread` log (Scripts/tsan).

Prints each distinct report once (by kind and the location of its SUMMARY line, with how many times it came), saying
where it comes from: the library (a frame of Sources/ is the first of the repository's frames in its stacks), the
tests (Tests/), or elsewhere (only toolchain or system frames). Exit status 1 when a report comes from the library,
or when the log shows no test ran; else 0.

    python3 Scripts/tsan_reports.py .build-tsan/tsan.log
"""

from __future__ import annotations

import re
import sys
from collections import OrderedDict
from dataclasses import dataclass, field

# A frame: `#0 <symbol> <file>[:line[:column]] (<module>+0x…)`; Swift closures often come without a line.
FRAME = re.compile(r"^\s*#\d+\s+(?P<symbol>\S+)\s+(?P<file>[^\s:()]+\.(?:swift|c|cpp|h|m))(?::(?P<line>\d+))?")
SUMMARY = re.compile(r"^SUMMARY: ThreadSanitizer: (?P<kind>.+?) (?P<where>\S+?(?::\d+(?::\d+)?)?) in (?P<symbol>\S+)")


@dataclass
class Report:
    kind: str
    where: str
    origin: str
    frames: list[str] = field(default_factory=list)
    count: int = 1


def origin_of(files: list[str]) -> str:
    """Where a report comes from: its first frame in the repository's Sources/ or Tests/."""
    for path in files:
        if "/Sources/" in path or path.startswith("Sources/"):
            return "library"
        if "/Tests/" in path or path.startswith("Tests/"):
            return "tests"
    return "elsewhere"


def relative(path: str) -> str:
    for root in ("/Sources/", "/Tests/", "/Benchmarks/"):
        if root in path:
            return root.strip("/") + "/" + path.split(root, 1)[1]
    return path


def parse(text: str) -> list[Report]:
    reports: "OrderedDict[tuple[str, str], Report]" = OrderedDict()
    files: list[str] = []
    frames: list[str] = []
    inside = False
    for line in text.splitlines():
        if line.startswith("WARNING: ThreadSanitizer:"):
            inside, files, frames = True, [], []
            continue
        if not inside:
            continue
        frame = FRAME.match(line)
        if frame:
            files.append(frame["file"])
            if len(frames) < 6:
                line_number = f":{frame['line']}" if frame["line"] else ""
                frames.append(f"{frame['symbol']} {relative(frame['file'])}{line_number}")
            continue
        summary = SUMMARY.match(line)
        if summary:
            inside = False
            key = (summary["kind"], relative(summary["where"]))
            if key in reports:
                reports[key].count += 1
            else:
                reports[key] = Report(summary["kind"], key[1], origin_of(files), frames)
    return list(reports.values())


def main(arguments: list[str]) -> int:
    if len(arguments) != 1:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    with open(arguments[0], encoding="utf-8", errors="replace") as log:
        text = log.read()
    reports = parse(text)
    counts = {origin: sum(r.count for r in reports if r.origin == origin) for origin in ("library", "tests", "elsewhere")}
    total = sum(counts.values())
    print(
        f"ThreadSanitizer: {total} reports ({len(reports)} distinct): library {counts['library']}, "
        f"tests {counts['tests']}, elsewhere {counts['elsewhere']}")
    for report in reports:
        print(f"  [{report.origin}] {report.kind} at {report.where} (x{report.count})")
        for frame in report.frames:
            print(f"      {frame}")
    ran = re.search(r"Test run with \d+ tests?|Executed \d+ tests?", text) is not None
    if not ran:
        print("no test ran: see the log", file=sys.stderr)
        return 1
    return 1 if counts["library"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
