import type { Frame } from './frame.ts';
import { html } from './html.ts';
import { page } from './layout.ts';
import { errorNotice } from './notices.ts';

/** A page that only explains a refusal (403, 404, 429, …), inside the normal frame. */
export function messagePage(options: {
  title: string;
  error: { code: string; message: string };
  frame?: Frame;
  next?: { href: string; label: string };
}): string {
  const next =
    options.next ??
    (options.frame ? { href: '/dashboard', label: 'Back to the dashboard' } : { href: '/', label: 'Snip' });
  return page({
    title: options.title,
    frame: options.frame,
    narrow: true,
    body: html`<section class="card">
<h1>${options.title}</h1>
${errorNotice(options.error)}
<p><a class="button secondary" href="${next.href}">${next.label}</a></p>
</section>`,
  });
}
