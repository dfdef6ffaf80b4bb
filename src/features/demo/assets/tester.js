// The tester page: composes /create requests, shows the whole answer, follows the demo log live.
// Every value from a response or the log is shown with textContent, never as markup.
const data = JSON.parse(document.getElementById('page-data').textContent);
const { withAssumedScheme, sentenceOf } = globalThis.demoInput;
const form = document.getElementById('compose');
const $ = (id) => document.getElementById(id);
const SHOWN_HEADERS = [
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'retry-after',
  'location',
  'content-type',
];

function shellQuote(value) {
  return `'${String(value).replace(/'/g, `'\\''`)}'`;
}

function curlFor(endpoint, encoding, fields) {
  const lines = [`curl -i ${shellQuote(location.origin + endpoint)}`];
  if (encoding === 'json') {
    lines.push(`-H 'Content-Type: application/json'`);
    lines.push(`-H ${shellQuote(`X-API-Key: ${fields.apikey}`)}`);
    const body = { url: fields.url };
    if (fields.group) body.group = fields.group;
    lines.push(`-d ${shellQuote(JSON.stringify(body))}`);
  } else {
    lines.push(`--data-urlencode ${shellQuote(`apikey=${fields.apikey}`)}`);
    lines.push(`--data-urlencode ${shellQuote(`url=${fields.url}`)}`);
    if (fields.group) lines.push(`--data-urlencode ${shellQuote(`group=${fields.group}`)}`);
  }
  return lines.join(' \\\n  ');
}

function requestFor(encoding, fields) {
  if (encoding === 'json') {
    const body = { url: fields.url };
    if (fields.group) body.group = fields.group;
    return {
      headers: { 'Content-Type': 'application/json', 'X-API-Key': fields.apikey },
      body: JSON.stringify(body),
    };
  }
  const body = new URLSearchParams({ apikey: fields.apikey, url: fields.url });
  if (fields.group) body.set('group', fields.group);
  return { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body };
}

// A refusal said as the dashboard says it: the plain sentence of its cause or code (page data, from
// the server's tables), else the answer's own message. The code and the status are in the answer
// shown above, as data; the sentence is for the person.
function explain(body) {
  if (body.success === 'true') return 'The short link was created: it is in short_url (and Location).';
  if (!data.errors[body.error]) return 'The server could not complete the request.';
  return `Not shortened. ${sentenceOf(data, body) ?? ''}`;
}

function showAnswer(response, text, curl) {
  $('answer').hidden = false;
  $('answer-status').textContent = `HTTP ${response.status} ${response.statusText}`;
  const headers = $('answer-headers');
  headers.replaceChildren();
  for (const name of SHOWN_HEADERS) {
    const value = response.headers.get(name);
    if (value === null) continue;
    const dt = document.createElement('dt');
    dt.textContent = name;
    const dd = document.createElement('dd');
    dd.textContent = value;
    headers.append(dt, dd);
  }
  let body;
  try {
    body = JSON.parse(text);
    $('answer-body').textContent = JSON.stringify(body, null, 2);
  } catch {
    body = {};
    $('answer-body').textContent = text;
  }
  $('answer-outcome').textContent = body.success === 'true' ? '— success' : '— refused';
  $('answer').dataset.outcome = body.success === 'true' ? 'success' : 'error';
  $('answer-explain').textContent = explain(body);
  $('curl').textContent = curl;
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const values = new FormData(form);
  const endpoint = values.get('endpoint');
  const encoding = values.get('encoding');
  const fields = {
    url: withAssumedScheme(values.get('url')),
    group: values.get('group').trim(),
    apikey: values.get('apikey'),
  };
  form.elements.url.value = fields.url;
  const curl = curlFor(endpoint, encoding, fields);
  const button = form.querySelector('button[type=submit]');
  button.disabled = true;
  try {
    const response = await fetch(endpoint, { method: 'POST', ...requestFor(encoding, fields) });
    showAnswer(response, await response.text(), curl);
  } catch (error) {
    $('answer').hidden = false;
    $('answer-status').textContent = 'No answer';
    $('answer-explain').textContent = String(error);
    $('curl').textContent = curl;
  } finally {
    button.disabled = false;
  }
});

$('copy-curl').addEventListener('click', async () => {
  const button = $('copy-curl');
  try {
    await navigator.clipboard.writeText($('curl').textContent);
    button.textContent = 'Copied';
  } catch {
    const range = document.createRange();
    range.selectNodeContents($('curl'));
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    button.textContent = 'Selected: press Ctrl+C';
  }
  setTimeout(() => {
    button.textContent = 'Copy curl command';
  }, 2000);
});

// The live log.
const log = $('log');
const MAX_ENTRIES = 200;

function logItem(entry) {
  const li = document.createElement('li');
  li.className = entry.body && entry.body.success === 'true' ? 'ok' : 'refused';
  const head = document.createElement('div');
  head.className = 'log-head';
  const error = entry.body?.error ? ` error ${entry.body.error}` : '';
  head.textContent = `${new Date(entry.time).toLocaleTimeString()} · ${entry.client} · ${entry.encoding} · HTTP ${entry.status}${error}`;
  const fields = document.createElement('div');
  fields.className = 'log-fields';
  fields.textContent = Object.entries(entry.fields)
    .map(([name, value]) => `${name}=${value}`)
    .join('  ');
  li.append(head, fields);
  if (entry.body && typeof entry.body.title === 'string' && entry.body.title !== '') {
    const title = document.createElement('div');
    title.className = 'log-title';
    title.textContent = `title: ${entry.body.title}`;
    li.append(title);
  }
  return li;
}

function prepend(entry) {
  log.prepend(logItem(entry));
  while (log.children.length > MAX_ENTRIES) log.lastElementChild.remove();
}

async function follow() {
  const state = $('log-state');
  try {
    const entries = await (await fetch('/demo/log')).json();
    for (const entry of entries.reverse()) prepend(entry);
  } catch {
    state.textContent = 'could not load the log';
  }
  const stream = new EventSource('/demo/log/stream');
  stream.addEventListener('open', () => {
    state.textContent = 'live';
    document.body.dataset.logLive = 'true';
  });
  stream.addEventListener('error', () => {
    state.textContent = 'reconnecting…';
  });
  stream.addEventListener('entry', (event) => prepend(JSON.parse(event.data)));
}

follow();
