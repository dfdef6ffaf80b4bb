import { html } from './html.ts';
import { page } from './layout.ts';

/** The page of an unknown, too eager or momentarily unreachable short link, inside the site's frame. */
export function errorPage(status: number, title: string, detail: string): string {
  return page({
    chrome: 'visitor',
    title: `${status} ${title}`,
    narrow: true,
    body: html`<section class="card">
<p class="hint">Error ${status}</p>
<h1>${title}</h1>
<p>${detail}</p>
<p><a class="button" href="/">Go to Snip</a></p>
</section>`,
  });
}
