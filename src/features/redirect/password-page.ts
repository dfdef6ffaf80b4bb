import { html } from '../../web/html.ts';
import { page } from '../../web/layout.ts';
import { errorNotice, type PageError } from '../../web/notices.ts';
import { REPORT_PROMPT } from './gone-page.ts';

/**
 * The form of a password-protected link (docs/api.md §8.2): it posts the password back to the
 * link's own address (with the query, for a link that forwards it). Kept out of search engines and
 * caches; it names nothing of the target.
 */
export function passwordPage(code: string, error?: PageError, action = `/${code}`): string {
  return page({
    chrome: 'visitor',
    title: 'This link is protected',
    narrow: true,
    noindex: true,
    description: 'A password-protected short link.',
    body: html`<section class="card" aria-labelledby="protected-heading">
<h1 id="protected-heading">This link is protected</h1>
<p>Whoever shared <code>${code}</code> protected it with a password. Enter it to go on.</p>
${errorNotice(error)}
<form method="post" action="${action}" class="stack narrow-form">
  <label>Password <input type="password" name="password" autocomplete="off" required autofocus maxlength="1024"></label>
  <button type="submit">Open the link</button>
</form>
${REPORT_PROMPT}
</section>`,
  });
}
