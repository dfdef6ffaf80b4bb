import type { FastifyReply, FastifyRequest } from 'fastify';
import { html } from '../../web/html.ts';
import { page } from '../../web/layout.ts';
import { wantsJson } from './miss-pages.ts';

/** Why a link answers 410 Gone (docs/api.md §8.2, §13), as a person reads it (wording is no contract). */
export const GONE = {
  expired: ['Link expired', 'This short link has expired.'],
  'used-up': ['Link used up', 'This short link has been followed as often as it may be.'],
  disabled: ['Link disabled', 'This short link was disabled for abuse. It leads nowhere any more.'],
} as const;

export type GoneReason = keyof typeof GONE;

/** Every link page a visitor can reach offers the way to report a link (docs/api.md §13). */
export const REPORT_PROMPT = html`<p class="hint">Something wrong with a short link? <a href="/report">Report it</a>.</p>`;

/** The 410 page: it names no target and counts nothing. */
export function gonePage(why: GoneReason): string {
  const [title, detail] = GONE[why];
  return page({
    chrome: 'visitor',
    title: `410 ${title}`,
    narrow: true,
    noindex: true,
    body: html`<section class="card" data-gone="${why}">
<p class="hint">Error 410</p>
<h1>${title}</h1>
<p>${detail}</p>
${REPORT_PROMPT}
<p><a class="button" href="/">Go to Snip</a></p>
</section>`,
  });
}

/** Answers 410 for the reason, as a page or (when asked for) JSON. */
export function sendGone(request: FastifyRequest, reply: FastifyReply, why: GoneReason): FastifyReply {
  reply.code(410).header('cache-control', 'no-store');
  if (wantsJson(request.headers.accept)) {
    return reply.send({ error: '410', reason: why, message: GONE[why][1] });
  }
  return reply.type('text/html; charset=utf-8').send(gonePage(why));
}
