// The landing page's demo box: one URL, sent to /demo/create with the public demo key; the answer is
// shown as Snip gave it. Every value from the answer is set with textContent, never as markup.
const data = JSON.parse(document.getElementById('page-data').textContent);
const form = document.getElementById('demo-box');
const result = document.getElementById('demo-result');

// A URL typed without a scheme whose rest is a host gets https:// (docs/api.md §18), as the
// dashboard's forms do (core/url-input.ts withAssumedScheme); `localhost`, `foo` or `javascript:…`
// are sent as typed, for the API to refuse.
function withAssumedScheme(typed) {
  const url = String(typed ?? '').trim();
  if (url === '' || /^[a-z][a-z0-9+.-]*:(?!\d)/i.test(url) || /^[/\\]/.test(url)) return typed;
  let host;
  try {
    host = new URL(`https://${url}`).hostname;
  } catch {
    return typed;
  }
  if (/[@\s]/.test(url.split(/[/?#]/)[0])) return typed;
  const ip = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (ip) return ip.slice(1).every((part) => Number(part) <= 255) ? `https://${url}` : typed;
  const labels = host.replace(/\.$/, '').split('.');
  const top = labels.at(-1) ?? '';
  const ok =
    labels.length >= 2 &&
    labels.every((label) => /^(?!-)[a-z0-9-]{1,63}(?<!-)$/.test(label)) &&
    /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(top);
  return ok ? `https://${url}` : typed;
}

// A refusal in a sentence: a URL of the wrong shape by its cause, else the plain sentence of its code.
function sentenceOf(body) {
  const fault = body.error === '300' ? data.urlFaults?.[body.message] : undefined;
  return fault ?? data.errors[body.error]?.plain ?? body.message;
}

function line(label, value) {
  const row = document.createElement('div');
  const term = document.createElement('dt');
  const detail = document.createElement('dd');
  term.textContent = label;
  detail.textContent = value;
  row.append(term, detail);
  return row;
}

// A demo link is not kept, so it leads nowhere: the answer says so and offers a real one.
function invitation() {
  const box = document.createElement('p');
  box.className = 'demo-invite';
  box.dataset.invite = 'signup';
  const signUp = document.createElement('a');
  signUp.className = 'button small';
  signUp.href = '/signup';
  signUp.textContent = 'Sign up free';
  box.append(
    document.createTextNode('This demo link is not saved, so it will not open anything. '),
    signUp,
    document.createTextNode(' to make short links that work.'),
  );
  return box;
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const url = withAssumedScheme(new FormData(form).get('url'));
  form.elements.url.value = url;
  const button = form.querySelector('button');
  button.disabled = true;
  result.hidden = false;
  result.replaceChildren(document.createTextNode('Checking the page…'));
  try {
    const response = await fetch('/demo/create', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': data.demoKey },
      body: JSON.stringify({ url }),
    });
    const body = await response.json();
    const facts = document.createElement('dl');
    facts.className = 'facts';
    facts.dataset.status = String(response.status);
    if (body.success === 'true') {
      facts.append(line('Short URL', body.short_url), line('Title', body.title || '(none)'));
      facts.append(line('Answer', 'Created'));
    } else {
      // Said as the dashboard says it (page data from the server's tables), never as a code or a status.
      facts.dataset.error = String(body.error);
      facts.append(line('Answer', 'Not shortened'), line('Why', sentenceOf(body)));
    }
    result.replaceChildren(facts);
    if (body.success === 'true') result.append(invitation());
  } catch {
    result.replaceChildren(document.createTextNode('The demo did not answer. Try again in a moment.'));
  } finally {
    button.disabled = false;
  }
});
