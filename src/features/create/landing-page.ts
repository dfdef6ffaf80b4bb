import type { Frame } from '../../web/frame.ts';
import { html } from '../../web/html.ts';
import { page } from '../../web/layout.ts';

/** GET /: what Snip is and where to go next. */
export function landingPage(frame?: Frame): string {
  return page({
    signedInAs: frame?.email,
    csrfToken: frame?.csrfToken,
    title: 'Short links you can trust',
    body: html`<section class="hero">
<h1>Short links, checked before they are made</h1>
<p>Snip turns long http(s) URLs into short links through one JSON endpoint. Every target is checked first:
reachable, not a 404, not behind a firewall challenge, not empty. Each link redirects, counts its clicks and has a QR code.</p>
<p class="actions"><a class="button" href="/tester">Try the API in the tester</a>
<a class="button secondary" href="/openapi.json">Read the API description</a></p>
<p class="actions"><a href="/signup">Create an account</a> · <a href="/login">Sign in</a></p>
</section>`,
  });
}
