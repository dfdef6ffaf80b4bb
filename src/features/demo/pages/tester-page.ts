import type { Frame } from '../../../web/frame.ts';
import { html } from '../../../web/html.ts';
import { page } from '../../../web/layout.ts';
import { demoRefusals, demoUrlFaults } from './refusal-sentences.ts';

/** GET /tester: compose a /create request, see the whole answer, and watch the demo log live. */
export function testerPage(demoKey: string, frame?: Frame): string {
  return page({
    chrome: 'site',
    title: 'API tester',
    current: '/tester',
    styles: ['tester.css'],
    frame: frame,
    scripts: ['demo-input.js', 'tester.js'],
    data: { demoKey, errors: demoRefusals(), urlFaults: demoUrlFaults() },
    body: html`<h1>API tester</h1>
<p class="lead">Send a request to <code>/demo/create</code> (nothing is stored) or to the live <code>/create</code> with your own key.</p>
<div class="tester">
<form id="compose" class="card" autocomplete="off">
  <fieldset class="switch"><legend>Endpoint</legend>
    <label><input type="radio" name="endpoint" value="/demo/create" checked> Demo</label>
    <label><input type="radio" name="endpoint" value="/create"> Live</label>
  </fieldset>
  <fieldset class="switch"><legend>Encoding</legend>
    <label><input type="radio" name="encoding" value="json" checked> JSON + X-API-Key</label>
    <label><input type="radio" name="encoding" value="form"> Legacy form (apikey field)</label>
  </fieldset>
  <label>URL <input name="url" type="text" inputmode="url" placeholder="https://example.com/a/long/page" value="https://example.com/"></label>
  <label>Group <span class="hint">(optional: numeric ID or API identifier; the demo has <code>demo</code> and <code>1</code>)</span>
    <input name="group" type="text"></label>
  <label>API key <input name="apikey" type="text" value="${demoKey}" spellcheck="false"></label>
  <button type="submit">Send request</button>
</form>
<div class="answer-side">
<section id="answer" class="card answer" aria-live="polite" hidden>
  <h2>Answer</h2>
  <p class="status"><span id="answer-status"></span> <span id="answer-outcome"></span></p>
  <p id="answer-explain" class="explain"></p>
  <h3>Headers</h3>
  <dl id="answer-headers"></dl>
  <h3>Body</h3>
  <pre id="answer-body"></pre>
  <h3>The same with curl</h3>
  <pre id="curl"></pre>
  <button type="button" id="copy-curl" class="secondary">Copy curl command</button>
</section>
<div id="answer-empty" class="card empty"><p><strong>The answer appears here</strong>: its HTTP status, the rate-limit headers, the JSON body with its error code explained, and the same request as a curl command to paste in a terminal.</p></div>
</div>
</div>
<section class="card" aria-labelledby="log-heading">
  <h2 id="log-heading">Live demo log <span id="log-state" class="hint">connecting…</span></h2>
  <p class="hint">Every request to /demo/create, newest on top. Addresses are cut to their network; keys other than the demo key are redacted.</p>
  <ol id="log" class="log"></ol>
</section>`,
  });
}
