#!/usr/bin/env python3
"""Renders a store trace (`demo … --trace FILE`, `StoreTracer`) as one self-contained HTML page: a timeline.

    trace_to_html.py TRACE.json OUT.html [--title TEXT]

Perfetto (ui.perfetto.dev) opens the same file interactively; this page needs nothing online, so a headless browser
can screenshot it: `chromium --headless --screenshot=out.png --window-size=1400,900 file://$PWD/OUT.html`.

Each store gets its actions track (one tick per action at the time its reducer ran, labelled where there is room)
and one track per effect (a bar from start to end; a red mark where it was cancelled, a hatched end if it was still
running when the trace was closed), with the events the tracer dropped (if any) beside the store's name, then the
slowest reducer calls. Standard library only.
"""

from __future__ import annotations

import html
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

# The trace format's names, as `TraceSchema` defines them (Sources/Unidirectional/Instrumentation/TraceSchema.swift,
# described in the "Seeing a running store" article). tests/test_trace_to_html.py reads
# Tests/Fixtures/every-event.trace.json, which the Swift writer writes (its test pins the file), so a name changed
# there and not here fails a test. The event members (`name`, `cat`, `ph`, `ts`, `dur`, `pid`, `tid`, `args`, `s`)
# are the Chrome Trace Event format's own.
COMPLETE, INSTANT, METADATA = "X", "i", "M"  # phases
ACTION, EFFECT, TRACER = "action", "effect", "tracer"  # categories
PROCESS_NAME, THREAD_NAME = "process_name", "thread_name"  # metadata names (the sort indexes are for viewers)
CANCELLED, DROPPED_EVENTS = "cancelled", "dropped events"  # instants' names
ARG_NAME, ARG_ORIGIN, ARG_ACTION, ARG_UNFINISHED, ARG_COUNT = "name", "origin", "action", "unfinished", "count"
ACTIONS_THREAD = 0  # a store's actions (and the tracer's instants); an effect's thread is its id

WIDTH = 1360
LABEL_WIDTH = 300
ROW_HEIGHT = 26
ACTION_ROW_HEIGHT = 150


@dataclass
class Track:
    name: str
    slices: list[dict] = field(default_factory=list)
    marks: list[dict] = field(default_factory=list)


@dataclass
class Store:
    name: str
    actions: list[dict] = field(default_factory=list)
    effects: dict[int, Track] = field(default_factory=dict)
    dropped: int = 0  # events the tracer dropped, falling behind


class TraceError(Exception):
    """The file is not a trace this script can draw."""


def load(path: Path) -> dict[int, Store]:
    """The trace's stores by process id, with their actions and effects."""
    try:
        events = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise TraceError(f"{path}: not a readable JSON trace ({error})") from error
    if isinstance(events, dict):
        events = events.get("traceEvents")
    if not isinstance(events, list):
        raise TraceError(f"{path}: expected a JSON array of trace events")
    stores: dict[int, Store] = {}
    for event in events:
        if not isinstance(event, dict):
            continue
        pid, tid, phase = event.get("pid", 0), event.get("tid", ACTIONS_THREAD), event.get("ph")
        name, category = event.get("name"), event.get("cat")
        store = stores.setdefault(pid, Store(name=f"process {pid}"))
        args = event.get("args") or {}
        if phase == METADATA and name == PROCESS_NAME:
            store.name = str(args.get(ARG_NAME, store.name))
        elif phase == METADATA and name == THREAD_NAME and tid != ACTIONS_THREAD:
            track_name = str(args.get(ARG_NAME, f"effect {tid}"))
            store.effects.setdefault(tid, Track(name=track_name)).name = track_name
        elif phase == COMPLETE and category == ACTION:
            store.actions.append(event)
        elif phase == COMPLETE and category == EFFECT and tid != ACTIONS_THREAD:
            store.effects.setdefault(tid, Track(name=str(name or f"effect {tid}"))).slices.append(event)
        elif phase == INSTANT and category == EFFECT and name == CANCELLED and tid != ACTIONS_THREAD:
            store.effects.setdefault(tid, Track(name=f"effect {tid}")).marks.append(event)
        elif phase == INSTANT and category == TRACER and name == DROPPED_EVENTS:
            count = args.get(ARG_COUNT, 0)
            store.dropped += count if isinstance(count, int) else 0
    return {pid: store for pid, store in sorted(stores.items()) if store.actions or store.effects}


def render(stores: dict[int, Store], title: str) -> str:
    """The page: a timeline per store and the slowest reducer calls."""
    times = [e["ts"] for s in stores.values() for e in s.actions]
    times += [e["ts"] + e.get("dur", 0) for s in stores.values() for t in s.effects.values() for e in t.slices]
    end = max(times, default=1.0) * 1.02 or 1.0
    scale = (WIDTH - LABEL_WIDTH - 20) / end

    def x(ts: float) -> float:
        return LABEL_WIDTH + ts * scale

    parts: list[str] = []
    y = 30
    # Time axis, in milliseconds.
    step = nice_step(end / 1000 / 10)
    tick = 0.0
    while tick * 1000 <= end:
        parts.append(f'<line x1="{x(tick * 1000):.1f}" y1="{y}" x2="{x(tick * 1000):.1f}" y2="100%" class="grid"/>')
        parts.append(f'<text x="{x(tick * 1000):.1f}" y="{y - 8}" class="axis">{format_ms(tick)}</text>')
        tick += step
    y += 10
    slowest: list[tuple[float, str, str]] = []
    for store in stores.values():
        dropped = f" ({store.dropped} events dropped: the tracer fell behind)" if store.dropped else ""
        parts.append(f'<text x="8" y="{y + 16}" class="store">{html.escape(store.name)}{dropped}</text>')
        y += 26
        # Actions: ticks, with labels staggered over four lines where they fit.
        parts.append(f'<rect x="0" y="{y}" width="{WIDTH}" height="{ACTION_ROW_HEIGHT}" class="band"/>')
        parts.append(f'<text x="8" y="{y + 18}" class="track">actions ({len(store.actions)})</text>')
        last_label_end = [-1e9] * 4
        for event in store.actions:
            left = x(event["ts"])
            width = max(event.get("dur", 0) * scale, 2)
            origin = (event.get("args") or {}).get(ARG_ORIGIN, "sent")
            parts.append(
                f'<rect x="{left:.1f}" y="{y + ACTION_ROW_HEIGHT - 30}" width="{width:.1f}" height="22" '
                f'class="action {html.escape(str(origin))}"><title>{html.escape(tooltip(event))}</title></rect>')
            name = str(event.get("name", ""))
            label = name if len(name) <= 34 else name[:33] + "…"
            for line in range(4):
                if left >= last_label_end[line] + 6 and left + 6.3 * len(label) <= WIDTH:
                    top = y + 24 + line * 22
                    parts.append(
                        f'<line x1="{left:.1f}" y1="{top + 4}" x2="{left:.1f}" y2="{y + ACTION_ROW_HEIGHT - 30}" '
                        f'class="leader"/>')
                    parts.append(f'<text x="{left + 3:.1f}" y="{top}" class="label">{html.escape(label)}</text>')
                    last_label_end[line] = left + 6.3 * len(label)
                    break
            slowest.append((event.get("dur", 0), store.name, str((event.get("args") or {}).get(ARG_ACTION, name))))
        y += ACTION_ROW_HEIGHT + 4
        # Effects: one bar each.
        for tid, track in sorted(store.effects.items()):
            parts.append(f'<rect x="0" y="{y}" width="{WIDTH}" height="{ROW_HEIGHT}" class="row"/>')
            name = track.name if len(track.name) <= 46 else track.name[:45] + "…"
            parts.append(
                f'<text x="8" y="{y + 17}" class="track">{html.escape(name)}<title>{html.escape(track.name)}</title>'
                '</text>')
            for event in track.slices:
                args = event.get("args") or {}
                css = "effect unfinished" if args.get(ARG_UNFINISHED) else "effect"
                left = x(event["ts"])
                width = max(event.get("dur", 0) * scale, 2)
                parts.append(
                    f'<rect x="{left:.1f}" y="{y + 4}" width="{width:.1f}" height="{ROW_HEIGHT - 8}" class="{css}">'
                    f'<title>{html.escape(tooltip(event))}</title></rect>')
                duration = format_ms(event.get("dur", 0) / 1000)
                if width > 60:
                    parts.append(f'<text x="{left + 5:.1f}" y="{y + 17}" class="bar">{duration}</text>')
            for mark in track.marks:
                parts.append(
                    f'<line x1="{x(mark["ts"]):.1f}" y1="{y + 1}" x2="{x(mark["ts"]):.1f}" y2="{y + ROW_HEIGHT - 1}" '
                    f'class="cancel"><title>cancelled at {format_ms(mark["ts"] / 1000)}</title></line>')
            y += ROW_HEIGHT + 2
        y += 12
    height = y + 10
    slowest.sort(reverse=True)
    rows = "".join(
        f"<tr><td>{duration:,.1f} µs</td><td>{html.escape(store)}</td>"
        f"<td>{html.escape(action if len(action) <= 110 else action[:109] + '…')}</td></tr>"
        for duration, store, action in slowest[:8])
    actions = sum(len(s.actions) for s in stores.values())
    effects = sum(len(s.effects) for s in stores.values())
    return f"""<!doctype html>
<html><head><meta charset="utf-8"><title>{html.escape(title)}</title><style>
body {{ font: 13px -apple-system, "DejaVu Sans", sans-serif; margin: 16px; color: #222; background: #fff; }}
h1 {{ font-size: 18px; margin: 0 0 4px; }} p {{ margin: 0 0 10px; color: #555; }}
svg text {{ font-size: 12px; }} .axis {{ fill: #666; text-anchor: middle; }} .grid {{ stroke: #eee; }}
.store {{ font-weight: bold; font-size: 14px; }} .track {{ fill: #333; }} .label {{ fill: #234; font-size: 11px; }}
.band {{ fill: #f6f8fb; }} .row {{ fill: #fafafa; }} .leader {{ stroke: #b8c4d6; stroke-width: 0.6; }}
.action.sent {{ fill: #d9480f; }} .action.received {{ fill: #1c7ed6; }}
.effect {{ fill: #74b816; opacity: 0.85; }} .effect.unfinished {{ fill: url(#hatch); }}
.bar {{ fill: #fff; font-size: 11px; }} .cancel {{ stroke: #e03131; stroke-width: 3; }}
table {{ border-collapse: collapse; margin-top: 8px; }} td {{ padding: 2px 12px 2px 0; font-family: monospace; white-space: nowrap; }}
.legend span {{ display: inline-block; width: 12px; height: 12px; margin: 0 4px -2px 12px; }}
</style></head><body>
<h1>{html.escape(title)}</h1>
<p class="legend">{actions} actions, {effects} effects ·
<span style="background:#d9480f"></span>sent <span style="background:#1c7ed6"></span>received (fed back by an
effect) <span style="background:#74b816"></span>effect running <span style="background:#e03131"></span>cancelled</p>
<svg width="{WIDTH}" height="{height}" xmlns="http://www.w3.org/2000/svg">
<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
<rect width="6" height="6" fill="#c0eb75"/><line x1="0" y1="0" x2="0" y2="6" stroke="#74b816" stroke-width="3"/>
</pattern></defs>
{"".join(parts)}
</svg>
<h1>Slowest reducer calls</h1>
<table>{rows}</table>
</body></html>
"""


def tooltip(event: dict) -> str:
    args = event.get("args") or {}
    details = ", ".join(f"{key}: {value}" for key, value in args.items())
    return f"{event.get('name', '')} at {format_ms(event.get('ts', 0) / 1000)}, {event.get('dur', 0):.1f} µs ({details})"


def nice_step(raw: float) -> float:
    """A round axis step (1, 2 or 5 times a power of ten) of at least `raw` milliseconds."""
    power = 10 ** len(str(int(raw))) / 10 if raw >= 1 else 0.001
    while True:
        for factor in (1, 2, 5):
            if power * factor >= raw:
                return power * factor
        power *= 10


def format_ms(milliseconds: float) -> str:
    if milliseconds == 0:
        return "0"
    if milliseconds >= 1000:
        return f"{milliseconds / 1000:.2f} s"
    if milliseconds >= 1:
        return f"{milliseconds:.0f} ms" if milliseconds >= 10 else f"{milliseconds:.1f} ms"
    return f"{milliseconds * 1000:.0f} µs"


def main(argv: list[str]) -> int:
    arguments = argv[1:]
    title = None
    if "--title" in arguments:
        index = arguments.index("--title")
        if index + 1 >= len(arguments):
            print("trace_to_html.py: --title needs a value", file=sys.stderr)
            return 2
        title = arguments[index + 1]
        del arguments[index : index + 2]
    if len(arguments) != 2:
        print("usage: trace_to_html.py TRACE.json OUT.html [--title TEXT]", file=sys.stderr)
        return 2
    trace, out = Path(arguments[0]), Path(arguments[1])
    try:
        stores = load(trace)
    except TraceError as error:
        print(f"trace_to_html.py: {error}", file=sys.stderr)
        return 1
    if not stores:
        print(f"trace_to_html.py: {trace}: no actions or effects in the trace", file=sys.stderr)
        return 1
    out.write_text(render(stores, title or trace.name), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
