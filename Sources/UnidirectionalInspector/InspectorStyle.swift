/// The inspector page's style sheet, served as `/inspector.css`.
///
/// ```swift
/// let css = InspectorStyle.source
/// ```
enum InspectorStyle {
  static let source = #"""
    :root { --row: 22px; --fg: #1d2430; --muted: #687386; --line: #d9dee7; --accent: #2f6fde; --bg: #f7f8fb;
      font: 13px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
    * { box-sizing: border-box; }
    body { margin: 0; height: 100vh; display: flex; flex-direction: column; }
    header { display: flex; gap: 10px; align-items: center; padding: 8px 12px; background: #fff;
      border-bottom: 1px solid var(--line); flex-wrap: wrap; }
    header input { font: inherit; padding: 4px 8px; border: 1px solid var(--line); border-radius: 6px; }
    #filter { width: 240px; } #jump { width: 110px; }
    .pill { padding: 1px 8px; border-radius: 10px; background: #e8eefc; color: var(--accent); font-size: 12px; }
    .pill:empty { display: none; }
    .warning { color: #b35c00; font-weight: 600; }
    #status { color: var(--muted); margin-left: auto; }
    main { flex: 1; display: flex; min-height: 0; }
    #list-pane { width: 40%; min-width: 320px; display: flex; flex-direction: column; border-right: 1px solid var(--line);
      background: #fff; }
    .columns, .row { display: grid; grid-template-columns: 72px 1fr 76px 78px; gap: 6px; padding: 0 10px; }
    .columns { color: var(--muted); font-size: 11px; text-transform: uppercase; padding-top: 4px; padding-bottom: 4px;
      border-bottom: 1px solid var(--line); }
    #list { flex: 1; overflow-y: auto; position: relative; outline: none; }
    #list-spacer { position: relative; }
    .row { position: absolute; left: 0; right: 0; height: var(--row); line-height: var(--row); cursor: pointer;
      white-space: nowrap; overflow: hidden; }
    .row span { overflow: hidden; text-overflow: ellipsis; }
    .row:hover { background: #f0f3f9; }
    .row.selected { background: var(--accent); color: #fff; }
    .row.diverged { box-shadow: inset 3px 0 #d33; }
    .row .n, .row .time { font-variant-numeric: tabular-nums; color: var(--muted); }
    .row.selected .n, .row.selected .time, .row.selected .origin, .row.selected .origin.received { color: #e3ebff; }
    .row .origin.received { color: #7a53c7; }
    #detail { flex: 1; overflow: auto; padding: 10px 16px; min-width: 0; }
    #detail h2 { font-size: 15px; margin: 4px 0 8px; }
    #detail h3 { font-size: 11px; text-transform: uppercase; color: var(--muted); margin: 14px 0 4px; }
    pre, .tree { font: 12px/1.45 ui-monospace, "SF Mono", Menlo, Consolas, monospace; background: #fff;
      border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; margin: 0; white-space: pre-wrap;
      word-break: break-all; max-height: 40vh; overflow: auto; }
    .tree { max-height: none; }
    .diff-line.removed { background: #fde8e8; color: #8e1f1f; display: block; }
    .diff-line.added { background: #e3f6e5; color: #1c6b2a; display: block; }
    .diff-line.context { color: var(--muted); display: block; }
    #states { display: flex; gap: 12px; }
    .state-column { flex: 1; min-width: 0; }
    .tree ul { list-style: none; margin: 0; padding-left: 16px; }
    .tree > ul { padding-left: 0; }
    .tree li.branch > .line { cursor: pointer; }
    .tree li.branch > .line::before { content: "▾ "; color: var(--muted); }
    .tree li.branch.collapsed > .line::before { content: "▸ "; }
    .tree li.collapsed > ul { display: none; }
    #divergence { background: #fff1f0; border: 1px solid #f3b9b5; color: #8e1f1f; border-radius: 6px; padding: 8px 10px; }
    #step-match.mismatch { color: #c62828; font-weight: 600; }
    #timeline { --label: 280px; border-top: 1px solid var(--line); background: #fff; max-height: 32vh; min-height: 60px;
      display: flex; flex-direction: column; flex-shrink: 0; }
    .timeline-head { display: flex; gap: 10px; align-items: center; padding: 4px 12px; font-size: 12px; flex-wrap: wrap; }
    #timeline-more { font: inherit; font-size: 11px; }
    #timeline-body { flex: 1; overflow-y: auto; min-height: 0; }
    .axis-row, .lane { display: grid; grid-template-columns: var(--label) 1fr; }
    .axis-row { position: sticky; top: 0; background: #fff; z-index: 2; height: 18px; border-bottom: 1px solid var(--line); }
    .axis-label { color: var(--muted); font-size: 11px; padding-left: 12px; }
    #timeline-axis { position: relative; }
    .tick { position: absolute; top: 0; height: 18px; padding-left: 2px; border-left: 1px solid var(--line);
      color: var(--muted); font-size: 10px; font-variant-numeric: tabular-nums; }
    #timeline-rows { position: relative; }
    .lane { height: 20px; align-items: center; }
    .lane:not(.running-at) { opacity: 0.6; }
    .effect-label { all: unset; cursor: pointer; padding-left: 12px; white-space: nowrap; overflow: hidden;
      text-overflow: ellipsis; font-size: 12px; }
    .effect-label:focus-visible, .bar:focus-visible { outline: 2px solid var(--accent); }
    .effect-name { color: var(--muted); margin-left: 6px; }
    .track { position: relative; height: 14px; }
    .bar { all: unset; position: absolute; top: 2px; height: 10px; min-width: 3px; border-radius: 3px;
      background: #9db7e8; cursor: pointer; }
    .bar.open { border-top-right-radius: 0; border-bottom-right-radius: 0;
      background: linear-gradient(90deg, #9db7e8 75%, rgba(157, 183, 232, 0.15)); }
    .bar.cut { border-top-left-radius: 0; border-bottom-left-radius: 0; }
    .bar.cancelled { background: repeating-linear-gradient(135deg, #e8a39d 0 4px, #f7d9d6 4px 8px); }
    .lane.running-at .bar:not(.cancelled) { background: var(--accent); }
    .lane.running-at .bar.open:not(.cancelled) { background: linear-gradient(90deg, var(--accent) 75%, #c9d8f6); }
    .lane.started .effect-label { color: var(--accent); font-weight: 600; }
    .lane.started .bar { box-shadow: 0 0 0 2px #173f8c; }
    .cancel-mark { position: absolute; top: -3px; color: #c62828; font-size: 12px; font-weight: 700; }
    #timeline-marker { position: absolute; top: 0; bottom: 0; border-left: 1px solid var(--accent);
      background: rgba(47, 111, 222, 0.08); pointer-events: none; }
    footer { padding: 4px 12px; color: var(--muted); border-top: 1px solid var(--line); background: #fff; font-size: 12px; }
    """#
}
