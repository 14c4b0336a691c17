"""`Scripts/trace_to_html.py`: a store trace becomes a self-contained timeline page; bad input is a clear error; it
reads every kind of event the Swift writer writes (the names of `TraceSchema`)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

from repository import REPO

SCRIPT = REPO / "Scripts" / "trace_to_html.py"
# A trace with every kind of event, written by the Swift writer (TraceFormatFixtureTests pins it to the writer).
EVERY_EVENT = REPO / "Tests" / "Fixtures" / "every-event.trace.json"


def load_script():
    spec = importlib.util.spec_from_file_location("trace_to_html", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up while they are made
    spec.loader.exec_module(module)
    return module


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


def test_every_event_the_swift_writer_writes_is_read() -> None:
    stores = load_script().load(EVERY_EVENT)
    assert [store.name for store in stores.values()] == ["Uploads store", "Timer store"]
    uploads, timer = stores[1], stores[2]
    assert [event["name"] for event in uploads.actions] == [
        ".start", ".progress(0.5)", '.rename("a \\"quoted\\" name\\n")', ".cancel"]
    assert [event["args"]["origin"] for event in uploads.actions] == ["sent", "received", "sent", "sent"]
    assert uploads.actions[1]["args"]["action"] == "Uploads.Action.progress(0.5)"
    assert {tid: track.name for tid, track in uploads.effects.items()} == {
        1: "effect 1 · .start", 2: "effect 2 · .start", 3: "effect 3 · .progress(0.5)"}
    assert [(slice_["ts"], slice_["dur"]) for slice_ in uploads.effects[1].slices] == [(13.0, 487.0)]
    assert uploads.effects[1].marks == []
    assert [slice_["args"] for slice_ in uploads.effects[2].slices] == [{"startedBy": 1, "cancelled": True}]
    assert [mark["ts"] for mark in uploads.effects[2].marks] == [401.0]
    assert [slice_["args"] for slice_ in uploads.effects[3].slices] == [{"startedBy": 2, "unfinished": True}]
    assert uploads.dropped == 3
    assert [event["name"] for event in timer.actions] == [".tick"]
    assert {tid: len(track.slices) for tid, track in timer.effects.items()} == {1: 1}
    assert timer.effects[1].slices[0]["args"]["unfinished"] is True
    assert timer.dropped == 0


def test_the_page_shows_the_dropped_events_and_the_unfinished_effects(tmp_path: Path) -> None:
    out = tmp_path / "every.html"
    result = run(str(EVERY_EVENT), str(out))
    assert result.returncode == 0, result.stderr
    page = out.read_text(encoding="utf-8")
    assert "Uploads store (3 events dropped: the tracer fell behind)" in page
    assert "Timer store</text>" in page
    assert page.count('class="effect unfinished"') == 2 and page.count('class="cancel"') == 1
    assert "5 actions, 4 effects" in page
