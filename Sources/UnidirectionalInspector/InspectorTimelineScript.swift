/// The effect timeline's script, served as `/inspector-timeline.js`: the effects running around the selected step
/// as bars along the steps, fetched a window at a time from `/api/effects`.
///
/// It talks to the page's main script (``InspectorScript``) through document events only: `inspector:info` (the
/// model's info), `inspector:step` (a step is shown; the last step known), `inspector:live` (the live timeline
/// changed) in, and `inspector:select` (show the step that started a clicked effect) out. Everything from the
/// trace is inserted with `textContent` or `title`, never parsed as markup.
///
/// ```swift
/// let js = InspectorTimelineScript.source
/// ```
enum InspectorTimelineScript {
  static let source = #"""
    'use strict';
    (() => {
      const token = new URLSearchParams(location.search).get('token') || '';
      const WINDOW = 60;           // steps drawn around the selected one
      const PAGE = 200;            // effects per request
      const $ = (id) => document.getElementById(id);
      const panel = $('timeline');
      const lanes = $('timeline-lanes');
      let enabled = false;
      let shown = -1;              // the selected step
      let lastStep = 0;
      let version = -1;            // live: the timeline's version last drawn
      let asked = 0;               // only the latest answer is drawn
      let range = null;            // the window drawn: { first, last, total }
      let drawn = new Map();       // effect id -> effect, for the window drawn

      function setText(element, value) { element.textContent = value == null ? '' : String(value); }
      function element(tag, className, text) {
        const made = document.createElement(tag);
        made.className = className;
        if (text != null) setText(made, text);
        return made;
      }
      function list(numbers) { return numbers.length > 0 ? numbers.join(', ') : 'none'; }
      function runsIn(effect, first, last) {
        return effect.startedBy <= last && (effect.endStep == null || effect.endStep >= first);
      }

      function fetchEffects(first, last, offset) {
        const query = new URLSearchParams({ from: first, to: last, offset: offset, count: PAGE, token: token });
        return fetch('/api/effects?' + query.toString(), { cache: 'no-store' }).then((response) => {
          if (!response.ok) throw new Error('/api/effects: ' + response.status);
          return response.json();
        });
      }

      function windowAround(step) {
        const end = Math.max(1, lastStep);
        let first = Math.max(1, step - Math.floor(WINDOW / 2));
        const last = Math.max(first, Math.min(end, first + WINDOW - 1));
        first = Math.max(1, Math.min(first, last - WINDOW + 1));
        return { first: first, last: last };
      }

      /// Fetches the window around the selected step and draws it.
      function refresh() {
        if (!enabled || shown < 0) return;
        const span = windowAround(Math.max(1, shown));
        const ticket = ++asked;
        fetchEffects(span.first, span.last, 0).then((page) => {
          if (ticket !== asked) return;
          range = { first: span.first, last: span.last, total: page.total };
          drawn = new Map();
          for (const effect of page.effects) drawn.set(effect.id, effect);
          draw();
        }).catch((error) => setText($('timeline-summary'), error.message));
      }

      /// Live: applies the effects that changed to the window drawn, without asking the server.
      function apply(changed) {
        if (!range) return;
        for (const effect of changed) {
          const inside = runsIn(effect, range.first, range.last);
          if (inside && !drawn.has(effect.id)) range.total += 1;
          if (!inside && drawn.has(effect.id)) range.total -= 1;
          if (inside) drawn.set(effect.id, effect); else drawn.delete(effect.id);
        }
        draw();
      }

      /// Where step `n` starts, as a percentage of the track (each step one equal cell).
      function left(n) { return ((n - range.first) / (range.last - range.first + 1)) * 100; }

      function drawAxis() {
        const axis = $('timeline-axis');
        axis.replaceChildren();
        const steps = range.last - range.first + 1;
        const every = steps <= 20 ? 1 : steps <= 60 ? 5 : 10;
        for (let n = range.first; n <= range.last; n++) {
          if (n !== range.first && n % every !== 0) continue;
          const tick = element('span', 'tick', n);
          tick.style.left = left(n) + '%';
          axis.appendChild(tick);
        }
        const marker = $('timeline-marker');
        marker.hidden = !(shown >= range.first && shown <= range.last);
        marker.style.left = 'calc(var(--label) + (100% - var(--label)) * ' + (left(shown) / 100) + ')';
        marker.style.width = 'calc((100% - var(--label)) / ' + steps + ')';
      }

      function draw() {
        drawAxis();
        lanes.replaceChildren();
        const started = [];
        const running = [];
        const effects = Array.from(drawn.values()).sort((a, b) => a.startedBy - b.startedBy || a.id - b.id);
        for (const effect of effects) {
          const startsHere = effect.startedBy === shown;
          const runsHere = runsIn(effect, shown, shown);
          if (startsHere) started.push(effect.id);
          if (runsHere) running.push(effect.id);
          lanes.appendChild(lane(effect, startsHere, runsHere));
        }
        const more = $('timeline-more');
        more.hidden = drawn.size >= range.total;
        setText(more, 'show ' + Math.min(PAGE, range.total - drawn.size) + ' more of ' + range.total);
        const count = range.total + (range.total === 1 ? ' effect' : ' effects');
        setText($('timeline-summary'), (shown === 0 ? 'Initial state' : 'Step ' + shown) + ' started effects '
          + list(started) + ' · running at it: ' + list(running) + ' · ' + count + ' in steps ' + range.first + '–'
          + range.last);
        panel.dataset.shown = String(shown);
      }

      function lane(effect, startsHere, runsHere) {
        const row = element('div', 'lane');
        row.dataset.effect = String(effect.id);
        row.dataset.startedBy = String(effect.startedBy);
        row.classList.toggle('started', startsHere);
        row.classList.toggle('running-at', runsHere);
        const label = element('button', 'effect-label');
        label.type = 'button';
        label.append(element('span', 'effect-id', 'effect ' + effect.id + ' · step ' + effect.startedBy),
          element('span', 'effect-name', effect.name));
        const track = element('div', 'track');
        const end = effect.endStep == null ? range.last : Math.min(effect.endStep, range.last);
        const from = Math.max(effect.startedBy, range.first);
        const bar = element('button', 'bar');
        bar.type = 'button';
        bar.classList.toggle('open', effect.endStep == null);
        bar.classList.toggle('cut', effect.startedBy < range.first);
        bar.classList.toggle('cancelled', effect.cancelled);
        bar.style.left = left(from) + '%';
        bar.style.width = (left(end + 1) - left(from)) + '%';
        bar.title = describe(effect);
        track.appendChild(bar);
        if (effect.cancelStep != null && effect.cancelStep >= range.first && effect.cancelStep <= range.last) {
          const mark = element('span', 'cancel-mark', '✕');
          mark.style.left = left(effect.cancelStep) + '%';
          mark.title = 'cancelled at step ' + effect.cancelStep;
          track.appendChild(mark);
        }
        const choose = () => document.dispatchEvent(new CustomEvent('inspector:select', { detail: { n: effect.startedBy } }));
        label.addEventListener('click', choose);
        bar.addEventListener('click', choose);
        row.append(label, track);
        return row;
      }

      function describe(effect) {
        let text = 'effect ' + effect.id + ', started by step ' + effect.startedBy;
        if (effect.parent != null) text += ' (an action of effect ' + effect.parent + ')';
        text += effect.endStep == null ? ', still running' : ', ran to step ' + effect.endStep;
        if (effect.duration != null) text += ' (' + Number(effect.duration).toFixed(3) + ' s)';
        if (effect.cancelled) text += ', cancelled' + (effect.cancelStep != null ? ' at step ' + effect.cancelStep : '');
        return text + ' — ' + effect.name;
      }

      $('timeline-more').addEventListener('click', () => {
        if (!range) return;
        const ticket = asked;
        fetchEffects(range.first, range.last, drawn.size).then((page) => {
          if (ticket !== asked) return;
          for (const effect of page.effects) drawn.set(effect.id, effect);
          draw();
        });
      });

      document.addEventListener('inspector:info', (event) => {
        const timeline = event.detail.info.timeline;
        if (!timeline) return;
        panel.hidden = false;
        lastStep = event.detail.info.stepCount;
        setText($('timeline-source'), timeline.source);
        setText($('timeline-note'), (timeline.notes || []).join(' · '));
        if (timeline.error) { setText($('timeline-summary'), 'no timeline: ' + timeline.error); return; }
        enabled = true;
        refresh();
      });
      document.addEventListener('inspector:step', (event) => {
        shown = event.detail.n;
        lastStep = Math.max(lastStep, event.detail.lastStep);
        refresh();
      });
      document.addEventListener('inspector:live', (event) => {
        lastStep = Math.max(lastStep, event.detail.lastStep);
        if (!enabled || event.detail.effects === version) return;
        version = event.detail.effects;
        if (event.detail.changed) apply(event.detail.changed); else refresh();
      });
    })();
    """#
}
