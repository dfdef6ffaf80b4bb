import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html, type SafeHtml } from './html.ts';

/**
 * The light, dark or system theme a person chose, remembered by their browser in a cookie (a year).
 * The server writes it into each page's <html data-theme>, so a chosen theme shows from the first
 * paint without a script; tokens.css turns it into the root's color-scheme. The choice is a plain
 * GET form in the footer: it works without script and changes nothing but the cookie.
 */

export const THEME_COOKIE = 'snip_theme';
const THEMES = ['system', 'light', 'dark'] as const;
type Theme = (typeof THEMES)[number];
const YEAR_SECONDS = 365 * 86_400;
const HTML_OPENING = '<html lang="en">';

const isTheme = (value: unknown): value is Theme => THEMES.includes(value as Theme);

/** The theme's switch: one button per choice, the current one marked by tokens.css from data-theme. */
export function themeSwitch(): SafeHtml {
  return html`<form class="theme" action="/settings/theme" method="get" aria-label="Colour theme">Theme ${THEMES.map(
    (theme) =>
      html`<button type="submit" name="set" value="${theme}">${theme[0]?.toUpperCase()}${theme.slice(1)}</button>`,
  )}</form>`;
}

/** Where to go back to: the page the switch was on, when it is one of this server's. */
function backTo(request: FastifyRequest): string {
  const referer = request.headers.referer;
  if (!referer || !URL.canParse(referer)) return '/';
  const from = new URL(referer);
  return from.host === request.headers.host ? `${from.pathname}${from.search}` : '/';
}

/** GET /settings/theme?set=light|dark|system, and each page's <html> marked with the chosen theme. */
export function useThemes(app: FastifyInstance, options: { https: boolean }): void {
  const cookie = { path: '/', sameSite: 'lax' as const, httpOnly: true, secure: options.https };
  app.get<{ Querystring: { set?: unknown } }>(
    '/settings/theme',
    { schema: { hide: true } },
    async (request, reply: FastifyReply) => {
      const chosen = request.query.set;
      if (chosen === 'light' || chosen === 'dark') {
        reply.setCookie(THEME_COOKIE, chosen, { ...cookie, maxAge: YEAR_SECONDS });
      } else if (chosen === 'system') {
        reply.clearCookie(THEME_COOKIE, cookie);
      }
      return reply.header('cache-control', 'no-store').redirect(backTo(request), 303);
    },
  );
  app.addHook('onSend', async (request, reply, payload) => {
    const theme = request.cookies?.[THEME_COOKIE];
    if (typeof payload !== 'string' || !isTheme(theme) || theme === 'system') return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('text/html')) return payload;
    return payload.replace(HTML_OPENING, `<html lang="en" data-theme="${theme}">`);
  });
}
