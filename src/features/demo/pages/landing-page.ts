import type { Frame } from '../../../web/frame.ts';
import { html } from '../../../web/html.ts';
import { page } from '../../../web/layout.ts';
import { siteFacts } from '../../../web/site-facts.ts';
import { demoRefusals, demoUrlFaults } from './refusal-sentences.ts';

/** GET /: what Snip does, tried on the spot with the demo key, and where to go next. */
export function landingPage(demoKey: string, origin: string, frame?: Frame): string {
  return page({
    chrome: 'site',
    frame: frame,
    title: 'Short links you can trust',
    description:
      'Snip turns long URLs into short links, checking every target first, and counts honest clicks.',
    styles: ['landing.css'],
    scripts: ['demo-input.js', 'landing.js'],
    data: { demoKey, errors: demoRefusals(), urlFaults: demoUrlFaults() },
    body: html`<section class="hero">
<div>
<h1>Short links, checked before they are made</h1>
<p class="lead">Snip turns long URLs into short ones through one JSON endpoint. It fetches every target first — reachable, not a 404, not behind a firewall challenge, not empty — and counts the clicks of people, not of bots.</p>
<p class="actions">${frame ? html`<a class="button" href="/dashboard">Go to your dashboard</a>` : html`<a class="button" href="/signup">Create an account</a>`}
<a class="button secondary" href="/tester">Open the API tester</a>
${siteFacts().pricing ? html`<a class="button secondary" href="/pricing">See the plans</a>` : html``}</p>
</div>
<section class="card demo" aria-labelledby="demo-heading">
<h2 id="demo-heading">Try it now</h2>
<p class="hint">Sent to <code>/demo/create</code> with the public demo key: every check runs, nothing is stored.</p>
<form id="demo-box" class="stack">
  <label>A long URL <input type="text" name="url" inputmode="url" required value="https://example.com/"></label>
  <button type="submit">Shorten it</button>
</form>
<div id="demo-result" class="demo-result" aria-live="polite" hidden></div>
</section>
</section>
<section class="card example" aria-labelledby="example-heading">
<h2 id="example-heading">One request, one answer</h2>
<div class="example-pair">
<div><p class="hint">Send a URL with your key…</p>
<pre><code>curl ${origin}/create \\
  -H 'Content-Type: application/json' \\
  -H "X-API-Key: $KEY" \\
  -d '{"url": "https://example.com/a/long/page"}'</code></pre></div>
<div><p class="hint">…and get the short link, its QR code and the page's title.</p>
<pre><code>HTTP/1.1 201 Created
Location: ${origin}/aZ3kP9q

{"success": "true", "error": "",
 "short_url": "${origin}/aZ3kP9q",
 "qr_code": "${origin}/qrcode/aZ3kP9q.png",
 "title": "Example Domain", "clicks": 0, …}</code></pre></div>
</div>
</section>
<section class="features" aria-label="What Snip does">
<div class="card"><h2>One endpoint</h2><p><code>POST /create</code> in JSON with an <code>X-API-Key</code>, or as a classic form. Numbered error codes, rate-limit headers, an <a href="/openapi.json">OpenAPI description</a>.</p></div>
<div class="card"><h2>Checked targets</h2><p>Dead pages, 404s, ModSecurity and Cloudflare walls, social networks and private addresses are refused before a link exists.</p></div>
<div class="card"><h2>Honest numbers</h2><p>Previews, prefetches and crawlers are redirected but counted apart. Every link has a QR code and a chart of its clicks.</p></div>
</section>`,
  });
}
