// The landing page's demo box: one URL, sent to /demo/create with the public demo key; the answer is
// shown as Snip gave it. Every value from the answer is set with textContent, never as markup.
const data = JSON.parse(document.getElementById('page-data').textContent);
const { withAssumedScheme, sentenceOf } = globalThis.demoInput;
const form = document.getElementById('demo-box');
const result = document.getElementById('demo-result');

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
      facts.append(line('Answer', 'Not shortened'), line('Why', sentenceOf(data, body)));
    }
    result.replaceChildren(facts);
    if (body.success === 'true') result.append(invitation());
  } catch {
    result.replaceChildren(document.createTextNode('The demo did not answer. Try again in a moment.'));
  } finally {
    button.disabled = false;
  }
});
