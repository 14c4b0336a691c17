/// The inspector's page: static markup that loads ``InspectorScript``, ``InspectorTimelineScript`` and
/// ``InspectorStyle``; the scripts fill it, with `textContent` only.
///
/// ```swift
/// let html = InspectorPage.html(token: server.token)
/// ```
enum InspectorPage {
  /// The page, its asset links carrying `token` (the server's own hex token, nothing from a log).
  static func html(token: String) -> String {
    let token = token.filter(\.isHexDigit)
    return #"""
      <!doctype html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>Unidirectional inspector</title>
      <link rel="stylesheet" href="/inspector.css?token=\#(token)">
      <script src="/inspector.js?token=\#(token)" defer></script>
      <script src="/inspector-timeline.js?token=\#(token)" defer></script>
      </head>
      <body>
      <header>
        <strong>Unidirectional inspector</strong>
        <span id="feature" class="pill"></span>
        <span id="mode" class="pill"></span>
        <span id="run-state" class="pill"></span>
        <span id="count"></span>
        <span id="dropped" class="warning"></span>
        <input id="filter" type="search" placeholder="filter by action name (/)" autocomplete="off" spellcheck="false">
        <input id="jump" type="text" placeholder="step # (g)" inputmode="numeric" autocomplete="off">
        <span id="status"></span>
      </header>
      <main>
        <section id="list-pane">
          <div class="columns"><span>#</span><span>action</span><span>origin</span><span>time</span></div>
          <div id="list" tabindex="0"><div id="list-spacer"></div></div>
        </section>
        <section id="detail">
          <div id="divergence" hidden></div>
          <h2><span id="step-number"></span> <span id="step-name"></span> <span id="step-origin" class="pill"></span>
            <span id="step-time"></span> <span id="step-match"></span></h2>
          <h3>Action</h3>
          <pre id="action"></pre>
          <h3>Diff</h3>
          <pre id="diff"></pre>
          <div id="states">
            <div class="state-column" id="recorded-column" hidden>
              <h3>Recorded state</h3>
              <div id="recorded-state" class="tree"></div>
              <h3>Recorded (−) and replayed (+)</h3>
              <pre id="recorded-diff"></pre>
            </div>
            <div class="state-column">
              <h3 id="state-title">State</h3>
              <div id="state" class="tree"></div>
            </div>
          </div>
        </section>
      </main>
      <section id="timeline" hidden>
        <div class="timeline-head">
          <strong>Effects</strong> <span id="timeline-source" class="pill"></span> <span id="timeline-summary"></span>
          <span id="timeline-note" class="warning"></span> <button id="timeline-more" type="button" hidden></button>
        </div>
        <div id="timeline-body">
          <div class="axis-row"><span class="axis-label">step</span><div id="timeline-axis"></div></div>
          <div id="timeline-rows"><div id="timeline-lanes"></div><div id="timeline-marker" hidden></div></div>
        </div>
      </section>
      <footer>↑/↓ previous/next step · Home/End first/last · g jump to a step · / filter · click a ▸ to fold ·
        click an effect to show the step that started it</footer>
      </body>
      </html>

      """#
  }
}
