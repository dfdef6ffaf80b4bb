// Many links at once (/w/<slug>/bulk): the pasted list or the CSV file is read here, its rows sent
// 100 at a time one request after another, and each row shows its short URL or why it was refused
// as its batch returns. Nothing waits on the page: it stays usable, and a run can stop and go on.
// Values are only ever set with textContent and properties.
(() => {
  const form = document.getElementById('bulk-form');
  if (!form) return;
  const BATCH = 100;
  const maxRows = Number(form.dataset.maxRows);
  const maxBytes = Number(form.dataset.maxBytes);
  const results = document.getElementById('bulk-results');
  const progress = document.getElementById('bulk-progress');
  const status = document.getElementById('bulk-status');
  const tbody = document.getElementById('bulk-rows');
  const stopButton = document.getElementById('bulk-stop');
  const resumeButton = document.getElementById('bulk-resume');
  const submit = form.querySelector('button[type=submit]');
  const figure = (n) => n.toLocaleString('en-US');

  // CSV as `snip link import` reads it (src/features/imports/csv-records.ts): commas between
  // fields, a quoted field may hold commas, line breaks and doubled quotes, CRLF or LF, a BOM skipped.
  function readRecord(text, start) {
    const fields = [];
    let pos = start;
    let breaks = 0;
    for (;;) {
      if (text[pos] === '"') {
        let value = '';
        let from = pos + 1;
        for (;;) {
          const quote = text.indexOf('"', from);
          if (quote < 0) return { error: 'a quoted field is not closed' };
          value += text.slice(from, quote);
          if (text[quote + 1] === '"') {
            value += '"';
            from = quote + 2;
            continue;
          }
          pos = quote + 1;
          break;
        }
        breaks += value.split('\n').length - 1;
        fields.push(value);
        const after = text[pos];
        if (after === ',') {
          pos += 1;
          continue;
        }
        if (after === undefined) return { fields, next: pos, breaks };
        if (after === '\n') return { fields, next: pos + 1, breaks: breaks + 1 };
        if (after === '\r' && text[pos + 1] === '\n') return { fields, next: pos + 2, breaks: breaks + 1 };
        return { error: 'text follows a closing quote' };
      }
      let end = pos;
      while (end < text.length && text[end] !== ',' && text[end] !== '\n') {
        if (text[end] === '"') return { error: 'a quote inside a field that does not start with one' };
        end += 1;
      }
      fields.push(text.slice(pos, text[end] === '\n' && text[end - 1] === '\r' ? end - 1 : end));
      if (text[end] === ',') {
        pos = end + 1;
        continue;
      }
      return end >= text.length
        ? { fields, next: end, breaks }
        : { fields, next: end + 1, breaks: breaks + 1 };
    }
  }

  function records(text) {
    const found = [];
    let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    let line = 1;
    while (pos < text.length) {
      const read = readRecord(text, pos);
      if (read.error) {
        found.push({ line, error: `This line is not valid CSV: ${read.error}.` });
        const lineEnd = text.indexOf('\n', pos);
        pos = lineEnd < 0 ? text.length : lineEnd + 1;
        line += 1;
        continue;
      }
      if (read.fields.some((field) => field.trim() !== '')) found.push({ line, fields: read.fields });
      pos = read.next;
      line += read.breaks;
    }
    return found;
  }

  // Columns as the import's csv format names them (src/features/imports/import-formats.ts).
  const NAMES = {
    url: 'url',
    longurl: 'url',
    slug: 'slug',
    shortcode: 'slug',
    group: 'group',
    title: 'title',
    tags: 'tags',
  };
  const POSITIONS = ['url', 'slug', 'group', 'title', 'tags'];
  const nameKey = (name) => name.toLowerCase().replace(/[\s_-]+/g, '');
  const looksLikeUrl = (field) => /^\s*https?:\/\//i.test(field);

  /** Each record as a row: the body of one create, or why it cannot be sent. */
  function rowsOf(text, defaults) {
    const all = records(text);
    const first = all[0]?.fields;
    const header =
      !!first && !first.some(looksLikeUrl) && first.some((field) => NAMES[nameKey(field)] === 'url');
    const columns = header ? first.map((field) => NAMES[nameKey(field)]) : POSITIONS;
    return all.slice(header ? 1 : 0).map((record) => {
      if (record.error) return { line: record.line, url: '', error: record.error };
      const { fields, line } = record;
      if (fields.length > columns.length) {
        const error = `This line has ${fields.length} fields where ${columns.length} are expected; quote a field that holds commas.`;
        return { line, url: fields[0] ?? '', error };
      }
      const body = { ...defaults };
      columns.forEach((column, index) => {
        const value = fields[index];
        if (column === undefined || value === undefined || value.trim() === '') return;
        if (column === 'tags')
          body.tags = value
            .split(/[|,]/)
            .map((tag) => tag.trim())
            .filter(Boolean);
        else body[column] = column === 'title' ? value : value.trim();
      });
      return { line, url: body.url ?? '', body };
    });
  }

  function showError(name, message) {
    const error = form.querySelector(`[data-bulk-error=${name}]`);
    const input = form.querySelector(`[name=${name}]`);
    error.textContent = message ?? '';
    error.hidden = !message;
    input.setAttribute('aria-invalid', String(!!message));
  }

  let run;

  function rowElement(row, index) {
    const tr = document.createElement('tr');
    tr.dataset.row = String(index);
    const line = document.createElement('th');
    line.scope = 'row';
    line.textContent = String(row.line);
    const url = document.createElement('td');
    const text = document.createElement('span');
    text.className = 'truncate';
    text.textContent = text.title = row.url || '(no URL)';
    url.append(text);
    const result = document.createElement('td');
    result.className = 'result';
    tr.append(line, url, result);
    return tr;
  }

  function setResult(index, state, content) {
    const tr = run.elements[index];
    tr.dataset.state = state;
    const cell = tr.querySelector('.result');
    cell.replaceChildren(content);
  }

  function refusedText(code, message) {
    const span = document.createElement('span');
    span.className = 'refused';
    span.dataset.error = code;
    span.textContent = message;
    return span;
  }

  function linkText(link) {
    const a = document.createElement('a');
    a.href = link.short_url;
    a.textContent = link.short_url;
    a.dataset.code = link.short_code;
    return a;
  }

  function report(final) {
    const done = run.created + run.refused;
    progress.max = Math.max(run.rows.length, 1);
    progress.value = done;
    const counts = `${figure(run.created)} created, ${figure(run.refused)} refused`;
    status.textContent = final ?? `${figure(done)} of ${figure(run.rows.length)} rows done: ${counts}.`;
  }

  function start(rows) {
    const elements = rows.map(rowElement);
    tbody.replaceChildren(...elements);
    run = { rows, elements, queue: [], next: 0, created: 0, refused: 0, stopped: false, sending: false };
    rows.forEach((row, index) => {
      if (row.error) {
        run.refused += 1;
        setResult(index, 'refused', refusedText('300', row.error));
      } else {
        run.queue.push(index);
        setResult(index, 'waiting', document.createTextNode('Waiting'));
      }
    });
    results.hidden = false;
    results.dataset.state = 'sending';
    report();
    send();
  }

  /** One batch; its answer's items, or an Error saying in plain words why none came. */
  async function post(bodies) {
    let response;
    try {
      response = await fetch(form.dataset.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ _csrf: form.elements._csrf.value, items: bodies }),
        credentials: 'same-origin',
        redirect: 'manual',
      });
    } catch {
      throw new Error('Snip could not be reached. Check the connection, then send the rest.');
    }
    if (response.type === 'opaqueredirect') {
      throw new Error('Your session has ended. Sign in again in another tab, then send the rest.');
    }
    const json = (response.headers.get('content-type') ?? '').includes('application/json');
    const answer = json ? await response.json() : undefined;
    if (response.ok && Array.isArray(answer?.items)) return answer.items;
    if (answer?.error) throw new Error(answer.error.message);
    throw new Error('Snip could not take these rows just now. Try again in a moment.');
  }

  function apply(batch, items) {
    for (const item of items) {
      const index = batch[item.index];
      if (index === undefined) continue;
      if (item.link) {
        run.created += 1;
        setResult(index, 'created', linkText(item.link));
      } else {
        run.refused += 1;
        const problem = item.error ?? {};
        setResult(
          index,
          'refused',
          refusedText(problem.code ?? '?', problem.detail || problem.title || 'Refused.'),
        );
      }
    }
  }

  // Every row of a batch refused for the hour's window or the plan's quota: the rest would be too.
  const exhausted = (items) =>
    items.length > 0 &&
    items.every((item) => item.error && (item.error.code === '429' || item.error.code === '304'));

  function pause(state, message) {
    results.dataset.state = state;
    resumeButton.hidden = run.next >= run.queue.length;
    stopButton.hidden = true;
    report(message);
  }

  async function send() {
    run.sending = true;
    run.stopped = false;
    submit.disabled = true;
    stopButton.hidden = false;
    resumeButton.hidden = true;
    while (run.next < run.queue.length && !run.stopped) {
      const batch = run.queue.slice(run.next, run.next + BATCH);
      for (const index of batch) setResult(index, 'sending', document.createTextNode('Sending…'));
      let items;
      try {
        items = await post(batch.map((index) => run.rows[index].body));
      } catch (error) {
        for (const index of batch) setResult(index, 'waiting', document.createTextNode('Not sent'));
        run.sending = false;
        submit.disabled = false;
        pause('failed', error.message);
        return;
      }
      apply(batch, items);
      run.next += batch.length;
      report();
      if (exhausted(items) && run.next < run.queue.length) {
        run.sending = false;
        submit.disabled = false;
        pause(
          'halted',
          `Stopped: this hour's requests or the plan's links are used up (${figure(run.created)} created). Send the rest later.`,
        );
        return;
      }
    }
    run.sending = false;
    submit.disabled = false;
    if (run.next < run.queue.length) {
      pause(
        'stopped',
        `Stopped after ${figure(run.created + run.refused)} of ${figure(run.rows.length)} rows: ${figure(run.created)} created, ${figure(run.refused)} refused.`,
      );
      return;
    }
    pause(
      'done',
      `Finished: ${figure(run.created)} created, ${figure(run.refused)} refused, of ${figure(run.rows.length)} rows.`,
    );
  }

  stopButton.addEventListener('click', () => {
    if (!run?.sending) return;
    run.stopped = true;
    stopButton.hidden = true;
    status.textContent = 'Stopping once the rows on their way have answered…';
  });

  resumeButton.addEventListener('click', () => {
    if (run && !run.sending) send();
  });

  async function readInput() {
    const file = form.elements.file.files[0];
    if (file) {
      if (file.size > maxBytes) {
        showError(
          'file',
          `This file is ${figure(Math.ceil(file.size / 1024))} KB; at most ${figure(maxBytes / 1024 / 1024)} MB is read.`,
        );
        return undefined;
      }
      return { name: 'file', text: await file.text() };
    }
    return { name: 'list', text: form.elements.list.value };
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (run?.sending) return;
    showError('list');
    showError('file');
    const input = await readInput();
    if (!input) return;
    const defaults = {};
    if (form.elements.group.value) defaults.group = form.elements.group.value;
    if (form.elements.domain?.value) defaults.domain = form.elements.domain.value;
    const rows = rowsOf(input.text, defaults);
    if (rows.length === 0) {
      showError(
        input.name,
        input.name === 'file' ? 'This file holds no rows.' : 'Paste at least one URL, or choose a file.',
      );
      return;
    }
    if (rows.length > maxRows) {
      showError(
        input.name,
        `This holds ${figure(rows.length)} rows; at most ${figure(maxRows)} go at a time. Split it.`,
      );
      return;
    }
    start(rows);
  });
})();
