"""`Scripts/trace_to_html.py`: a store trace becomes a self-contained timeline page; bad input is a clear error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "trace_to_html.py"


def run(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *arguments], capture_output=True, text=True, timeout=30)


def test_a_trace_renders_its_store_actions_effects_and_slowest_reducers(tmp_path: Path) -> None:
    trace = tmp_path / "t.json"
    trace.write_text(json.dumps([
        {"name": "process_name", "ph": "M", "pid": 1, "tid": 0, "args": {"name": "Counter store"}},
        {"name": "thread_name", "ph": "M", "pid": 1, "tid": 0, "args": {"name": "actions"}},
        {"name": ".start", "cat": "action", "ph": "X", "ts": 10.0, "dur": 2.5, "pid": 1, "tid": 0,
         "args": {"sequence": 1, "origin": "sent", "action": "Counter.Action.start"}},
        {"name": "thread_name", "ph": "M", "pid": 1, "tid": 1, "args": {"name": "effect 1 · .start"}},
        {"name": ".tick", "cat": "action", "ph": "X", "ts": 900.0, "dur": 40.0, "pid": 1, "tid": 0,
         "args": {"sequence": 2, "origin": "received", "action": "Counter.Action.tick <b>"}},
        {"name": "cancelled", "cat": "effect", "ph": "i", "ts": 950.0, "pid": 1, "tid": 1, "s": "t"},
        {"name": "effect 1 · .start", "cat": "effect", "ph": "X", "ts": 11.0, "dur": 1000.0, "pid": 1, "tid": 1,
         "args": {"startedBy": 1, "cancelled": True}},
    ]) + "\n")
    out = tmp_path / "t.html"
    result = run(str(trace), str(out), "--title", "counter run")
    assert result.returncode == 0, result.stderr
    page = out.read_text(encoding="utf-8")
    assert "<h1>counter run</h1>" in page
    assert "Counter store" in page and "actions (2)" in page
    assert 'class="action sent"' in page and 'class="action received"' in page
    assert "effect 1 · .start" in page and 'class="cancel"' in page
    # The slowest reducer first, its description escaped.
    table = page.split("<table>")[1]
    assert table.index("40.0 µs") < table.index("2.5 µs")
    assert "Counter.Action.tick &lt;b&gt;" in table and "<b>" not in table


def test_bad_input_is_a_clear_error(tmp_path: Path) -> None:
    missing = run(str(tmp_path / "absent.json"), str(tmp_path / "o.html"))
    assert missing.returncode == 1 and "not a readable JSON trace" in missing.stderr
    empty = tmp_path / "empty.json"
    empty.write_text("[]")
    nothing = run(str(empty), str(tmp_path / "o.html"))
    assert nothing.returncode == 1 and "no actions or effects" in nothing.stderr
    usage = run(str(empty))
    assert usage.returncode == 2 and usage.stderr.startswith("usage: trace_to_html.py")
