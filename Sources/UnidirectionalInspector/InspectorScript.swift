/// The inspector page's script, served as `/inspector.js`: a virtual step list fetched a window at a time, the
/// selected step's action, diff and state tree fetched one step at a time, keyboard navigation, and the live
/// feed (server-sent events). Everything from the log is inserted with `textContent`, never parsed as markup. It
/// tells the effect timeline (``InspectorTimelineScript``) what is shown through document events, and shows the step
/// the timeline asks for (`inspector:select`).
///
/// ```swift
/// let js = InspectorScript.source
/// ```
enum InspectorScript {
  static let source = #"""
    'use strict';
    (() => {
      const token = new URLSearchParams(location.search).get('token') || '';
      const ROW = 22;
      const $ = (id) => document.getElementById(id);
      const list = $('list');
      const spacer = $('list-spacer');
      let info = null;
      let total = 0;
      let filter = '';
      let generation = 0;          // bumps when the filter changes: late answers for an old list are ignored
      let rows = new Map();        // list position -> step summary
      const loading = new Set();
      let selected = -1;           // list position
      let shownStep = -1;
      let follow = true;           // live: keep the newest step selected

      function api(path, params) {
        const query = new URLSearchParams(params || {});
        query.set('token', token);
        return fetch(path + '?' + query.toString(), { cache: 'no-store' }).then((response) => {
          if (!response.ok) throw new Error(path + ': ' + response.status);
          return response.json();
        });
      }
      function setText(element, value) { element.textContent = value == null ? '' : String(value); }
      function span(className, value) {
        const element = document.createElement('span');
        element.className = className;
        setText(element, value);
        return element;
      }
      function status(message) { setText($('status'), message); }
      function announce(name, detail) { document.dispatchEvent(new CustomEvent('inspector:' + name, { detail: detail })); }
      /// The highest step number known: the log's last, or live, the newest row's.
      function lastStep() {
        const newest = info && info.mode === 'live' && !filter ? rows.get(total - 1) : null;
        return newest ? newest.n : info ? info.stepCount : 0;
      }
      function runState(message) { setText($('run-state'), message); }

      function setTotal(count) {
        total = count;
        spacer.style.height = (count * ROW) + 'px';
        const unit = filter ? ' matching steps' : ' steps';
        setText($('count'), count.toLocaleString('en-US') + unit);
        render();
      }

      function render() {
        const first = Math.max(0, Math.floor(list.scrollTop / ROW) - 10);
        const last = Math.min(total, Math.ceil((list.scrollTop + list.clientHeight) / ROW) + 10);
        for (const element of Array.from(spacer.children)) {
          const position = Number(element.dataset.pos);
          if (position < first || position >= last) element.remove();
        }
        const present = new Set(Array.from(spacer.children, (element) => Number(element.dataset.pos)));
        let missing = -1;
        for (let position = first; position < last; position++) {
          if (present.has(position)) continue;
          const summary = rows.get(position);
          if (!summary) { if (missing < 0) missing = position; continue; }
          spacer.appendChild(makeRow(position, summary));
        }
        if (missing >= 0 && !(info && info.mode === 'live' && !filter)) load(missing, last - missing);
      }

      function makeRow(position, summary) {
        const row = document.createElement('div');
        row.className = 'row';
        if (position === selected) row.classList.add('selected');
        if (info && info.firstDivergence === summary.n) row.classList.add('diverged');
        row.dataset.pos = String(position);
        row.dataset.n = String(summary.n);
        row.style.top = (position * ROW) + 'px';
        row.append(span('n', summary.n), span('name', summary.name),
          span('origin ' + (summary.origin === 'received' ? 'received' : 'sent'), summary.origin),
          span('time', Number(summary.time).toFixed(3) + 's'));
        row.addEventListener('click', () => { follow = false; select(position); });
        return row;
      }

      function load(from, count) {
        const start = Math.floor(from / 100) * 100;
        const key = generation + ':' + start;
        if (loading.has(key)) return Promise.resolve();
        loading.add(key);
        const asked = generation;
        const params = { from: start, count: Math.max(200, Math.ceil((from + count - start) / 100) * 100) };
        if (filter) params.filter = filter;
        return api('/api/steps', params).then((page) => {
          loading.delete(key);
          if (asked !== generation) return;
          page.steps.forEach((summary, offset) => rows.set(start + offset, summary));
          if (page.total !== total) setTotal(page.total); else render();
        }).catch((error) => { loading.delete(key); status(error.message); });
      }

      function select(position) {
        if (total === 0) return;
        position = Math.max(0, Math.min(total - 1, position));
        selected = position;
        const top = position * ROW;
        if (top < list.scrollTop) list.scrollTop = top;
        else if (top + ROW > list.scrollTop + list.clientHeight) list.scrollTop = top + ROW - list.clientHeight;
        for (const element of spacer.children) {
          element.classList.toggle('selected', Number(element.dataset.pos) === position);
        }
        const summary = rows.get(position);
        if (summary) { showStep(summary.n); return; }
        load(position, 1).then(() => { if (selected === position && rows.get(position)) showStep(rows.get(position).n); });
      }

      function showStep(number) {
        shownStep = number;
        api('/api/step', { n: number }).then((detail) => {
          if (detail.n !== shownStep) return;
          setText($('step-number'), detail.n === 0 ? 'Initial state' : 'Step ' + detail.n);
          setText($('step-name'), detail.name);
          setText($('step-origin'), detail.origin);
          setText($('step-time'), detail.n === 0 ? '' : Number(detail.time).toFixed(3) + 's');
          const match = $('step-match');
          match.classList.toggle('mismatch', detail.matchesRecording === false);
          setText(match, detail.matchesRecording === false ? '✗ differs from the recording'
            : detail.matchesRecording === true ? '✓ matches the recording' : '');
          setText($('action'), detail.action || '(none)');
          renderDiff($('diff'), detail.diff, detail.n === 0 ? '(the initial state)' : '(no state change)');
          renderTree($('state'), detail.state);
          const recorded = $('recorded-column');
          recorded.hidden = !detail.recorded;
          setText($('state-title'), detail.recorded ? 'Replayed state (changed reducer)' : 'State');
          if (detail.recorded) {
            renderTree($('recorded-state'), detail.recorded.state);
            renderDiff($('recorded-diff'), detail.recorded.diff, '(the same)');
          }
          document.body.dataset.shown = String(detail.n);
          announce('step', { n: detail.n, lastStep: lastStep() });
        }).catch((error) => status(error.message));
      }

      function renderDiff(element, diff, empty) {
        element.replaceChildren();
        if (diff == null) { setText(element, empty); return; }
        for (const line of diff.split('\n')) {
          const kind = line.startsWith('-') ? 'removed' : line.startsWith('+') ? 'added' : 'context';
          element.appendChild(span('diff-line ' + kind, line));
        }
      }

      function renderTree(container, dump) {
        container.replaceChildren();
        const root = document.createElement('ul');
        const stack = [{ indent: -1, list: root }];
        const lines = String(dump).split('\n');
        const indentOf = (line) => line.length - line.trimStart().length;
        lines.forEach((line, index) => {
          const indent = indentOf(line);
          while (stack.length > 1 && stack[stack.length - 1].indent >= indent) stack.pop();
          const item = document.createElement('li');
          const label = span('line', line.trimStart());
          item.appendChild(label);
          stack[stack.length - 1].list.appendChild(item);
          const next = lines[index + 1];
          if (next !== undefined && indentOf(next) > indent) {
            item.classList.add('branch');
            const children = document.createElement('ul');
            item.appendChild(children);
            stack.push({ indent: indent, list: children });
            label.addEventListener('click', () => item.classList.toggle('collapsed'));
          }
        });
        container.appendChild(root);
      }

      function applyFilter(value) {
        filter = value.trim();
        generation += 1;
        rows = new Map();
        spacer.replaceChildren();
        list.scrollTop = 0;
        selected = -1;
        total = -1;
        load(0, 100).then(() => { if (total > 0) select(0); else setTotal(Math.max(total, 0)); });
      }

      function jump(value) {
        const number = Number.parseInt(value, 10);
        if (!Number.isFinite(number) || number < 0) { status('not a step number'); return; }
        follow = false;
        if (filter) { $('filter').value = ''; applyFilter(''); }
        if (number === 0) { showStep(0); return; }
        if (info && info.mode === 'live') {
          for (const [position, summary] of rows) { if (summary.n === number) { select(position); return; } }
          status('step ' + number + ' is not kept'); return;
        }
        select(number - 1);
      }

      let filterTimer = 0;
      $('filter').addEventListener('input', (event) => {
        clearTimeout(filterTimer);
        filterTimer = setTimeout(() => applyFilter(event.target.value), 120);
      });
      $('jump').addEventListener('keydown', (event) => {
        if (event.key === 'Enter') { jump(event.target.value); event.target.blur(); }
      });
      list.addEventListener('scroll', () => requestAnimationFrame(render));
      document.addEventListener('inspector:select', (event) => jump(String(event.detail.n)));
      document.addEventListener('keydown', (event) => {
        if (event.target instanceof HTMLInputElement) {
          if (event.key === 'Escape') event.target.blur();
          return;
        }
        const moves = { ArrowDown: selected + 1, ArrowUp: selected - 1, Home: 0, End: total - 1,
          PageDown: selected + 20, PageUp: selected - 20 };
        if (event.key in moves) {
          event.preventDefault();
          follow = event.key === 'End';
          select(moves[event.key]);
        } else if (event.key === 'g') {
          event.preventDefault(); $('jump').focus();
        } else if (event.key === '/') {
          event.preventDefault(); $('filter').focus();
        }
      });

      function startLive() {
        const source = new EventSource('/api/events?' + new URLSearchParams({ token: token, after: '0' }).toString());
        source.addEventListener('steps', (event) => {
          const batch = JSON.parse(event.data);
          setText($('dropped'), batch.dropped > 0 ? batch.dropped + ' actions dropped (the inspector fell behind)' : '');
          if (batch.ended) { source.close(); runState('the run ended'); } else { runState('running'); }
          const newest = batch.steps.length > 0 ? batch.steps[batch.steps.length - 1].n : 0;
          announce('live', { effects: batch.effects, changed: batch.changed, lastStep: newest });
          if (filter) return;
          batch.steps.forEach((summary, offset) => rows.set(batch.from + offset, summary));
          setTotal(batch.total);
          if (follow && total > 0) select(total - 1);
        });
        source.addEventListener('error', () => { if (source.readyState !== EventSource.CLOSED) runState('reconnecting…'); });
      }

      api('/api/info').then((loaded) => {
        info = loaded;
        announce('info', { info: info });
        setText($('feature'), info.feature);
        setText($('mode'), info.mode);
        if (info.mode === 'live') {
          runState(info.ended ? 'the run ended' : 'running');
          showStep(0);
          startLive();
          return;
        }
        status('');
        load(0, 100).then(() => {
          if (info.firstDivergence) {
            const banner = $('divergence');
            banner.hidden = false;
            setText(banner, 'Step ' + info.firstDivergence + ' is the first whose replayed state differs from the '
              + 'recording: the recorded state (left) and the changed reducer\'s (right).');
            select(info.firstDivergence - 1);
          } else if (total > 0) {
            select(0);
          } else {
            showStep(0);
          }
        });
      }).catch((error) => status(error.message));
    })();
    """#
}
