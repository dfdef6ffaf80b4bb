import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientKey } from '../../core/client-key.ts';
import { UnavailableError } from '../../core/errors.ts';
import { hasExpired } from '../../core/link-limits.ts';
import { verifyPassword } from '../../core/password.ts';
import type { CountryLookup } from '../../core/ports/geo.ts';
import type { WindowCounter } from '../../core/ports/shared-state.ts';
import type { VisitLimits } from '../../core/ports/visit-limits.ts';
import { secondsUntil, windowAt } from '../../core/rate-window.ts';
import { firstMatch } from '../../core/targeting.ts';
import { type ClickKind, clickKind } from '../../http/click-kind.ts';
import { pagePolicy } from '../../http/security-headers.ts';
import { errorPage } from '../../web/error-page.ts';
import type { DailyVisitor } from '../analytics/index.ts';
import { NO_STORE, purposeOf, type RedirectAnswer } from './fast-path.ts';
import { sendGone } from './gone-page.ts';
import type { CachedLink } from './link-cache.ts';
import { previewerAsking } from './link-extras.ts';
import { variantFor } from './link-guard.ts';
import { passwordPage } from './password-page.ts';
import { formAction, sendTarget, type TargetAnswerOptions } from './target-answer.ts';
import { visitorFacts } from './targeting-facts.ts';

/**
 * The redirect of a link with rules (docs/api.md §8.2–8.3), in this order: expired → 410; a
 * password asked for (GET) or checked (POST, with its own limiter); the visit limit, taken only by
 * a human click; the first targeting rule that holds, else the link's URL. Nothing is counted for
 * an answer that is not a redirect.
 */
export interface GuardedOptions extends TargetAnswerOptions {
  answer: RedirectAnswer;
  limits: VisitLimits;
  /** Wrong passwords per address and link. */
  counter: WindowCounter;
  countries: CountryLookup;
  trustCountryHeaders: boolean;
  redirectStatus: 301 | 302 | 307 | 308;
  now: () => number;
  /** Wrong passwords per address and link in a window; and per link, from any address, in another. */
  passwordTries: { limit: number; windowMs: number; perLink: { limit: number; windowMs: number } };
  /** Today's visitor, whom an A/B test splits by (features/analytics). */
  visitor?: Pick<DailyVisitor, 'of'>;
}

/**
 * The form posts to the link itself, which answers with a redirect to the target; browsers hold
 * that redirect to form-action too, so this page lets a form lead on to any http(s) address.
 */
const FORM_POLICY = pagePolicy({ formAction: "'self' http: https:" });

function sendForm(
  reply: FastifyReply,
  status: number,
  code: string,
  action: string,
  error?: { code: string; message: string },
) {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .header('content-security-policy', FORM_POLICY)
    .header('x-robots-tag', 'noindex, nofollow')
    .type('text/html; charset=utf-8')
    .send(passwordPage(code, error, action));
}

function sendUnavailable(reply: FastifyReply, error: UnavailableError): FastifyReply {
  return reply
    .code(503)
    .header('cache-control', 'no-store')
    .header('retry-after', String(error.retryAfterSeconds))
    .type('text/html; charset=utf-8')
    .send(
      errorPage(
        503,
        'Try again in a moment',
        'This link cannot be followed right now. Try again in a few seconds.',
      ),
    );
}

/**
 * The A/B test's variant of a click no rule took (docs/api.md §20.x): today's visitor decides; when
 * the day's secret cannot be had (Redis down), a bucket drawn at random, so the link keeps working.
 */
async function splitVariant(options: GuardedOptions, request: FastifyRequest, link: CachedLink) {
  const split = link.guard?.split;
  if (!split) return 0;
  const hash = await options.visitor?.of(request.raw).catch(() => undefined);
  return variantFor(split, hash ?? randomBytes(4), link.id);
}

/** From the visit limit on: the redirect itself, for a GET that passed or a POST with the right password. */
async function follow(
  options: GuardedOptions,
  request: FastifyRequest,
  reply: FastifyReply,
  link: CachedLink,
  status: number,
) {
  const guard = link.guard;
  if (!guard) throw new Error('a guarded answer for a link without a guard');
  // A POST with the right password is the visitor's click, as a browser's GET would be.
  const method = request.method === 'POST' ? 'GET' : request.method;
  // A previewer given the link's card is a bot, even one a bot list does not know: it takes no visit.
  const previewer = previewerAsking(link.extras, request.method, request.headers['user-agent']);
  const kind: ClickKind =
    previewer !== undefined
      ? 'bot'
      : clickKind({ method, userAgent: request.headers['user-agent'], purpose: purposeOf(request.headers) });
  if (guard.limit) {
    try {
      const allowed =
        kind === 'human'
          ? await options.limits.take(guard.limit)
          : !(await options.limits.exhausted(guard.limit));
      if (!allowed) return sendGone(request, reply, 'used-up');
    } catch (error) {
      if (error instanceof UnavailableError) return sendUnavailable(reply, error);
      throw error;
    }
  }
  const rule =
    guard.rules.length > 0
      ? firstMatch(guard.rules, visitorFacts(request, options.countries, options))
      : undefined;
  const variant = rule === undefined && guard.split ? await splitVariant(options, request, link) : 0;
  const location =
    rule?.location ?? (variant > 0 ? guard.split?.locations[variant - 1] : undefined) ?? link.location;
  if (link.extras)
    return sendTarget(options, request, reply, { link, location, status, method, previewer, variant });
  options.answer(link, method, request.raw, variant);
  return reply.code(status).header('location', location).header('cache-control', NO_STORE).send();
}

/**
 * The limits on guessing a link's password (docs/api.md §8.2): tries per address (an IPv6 /64) and
 * link, each counted before the password is checked so that tries sent at once cannot all pass, a
 * right one taking its count back; and wrong ones per link from any address, so that many
 * addresses together cannot guess without end either. Undefined: the try may be checked.
 */
function passwordGate(options: GuardedOptions) {
  const { counter, passwordTries } = options;
  const linkKey = (code: string) => `password-link:{${code}}`;
  const addressKey = (request: FastifyRequest, code: string) => `password:{${code}}:${clientKey(request.ip)}`;

  return {
    async refusal(request: FastifyRequest, code: string) {
      const at = options.now();
      const linkWindow = windowAt(at, passwordTries.perLink.windowMs);
      if ((await counter.peek(linkKey(code), linkWindow)) >= passwordTries.perLink.limit) {
        const message = 'This link has had too many wrong passwords. Try again later.';
        return { retryAfter: secondsUntil(linkWindow.end, at), message };
      }
      const window = windowAt(at, passwordTries.windowMs);
      if ((await counter.increment(addressKey(request, code), window)) > passwordTries.limit) {
        const message = 'Too many wrong passwords from this address. Try again later.';
        return { retryAfter: secondsUntil(window.end, at), message };
      }
      return undefined;
    },

    async wrong(code: string): Promise<void> {
      await counter.increment(linkKey(code), windowAt(options.now(), passwordTries.perLink.windowMs));
    },

    async right(request: FastifyRequest, code: string): Promise<void> {
      const window = windowAt(options.now(), passwordTries.windowMs);
      await counter.decrement(addressKey(request, code), window).catch(() => undefined);
    },
  };
}

/** Wrong passwords are counted per link (its id: the same code may live on several domains). */
const limitKey = (link: CachedLink): string => `id${link.id}`;

export function guardedRedirects(options: GuardedOptions) {
  const gate = passwordGate(options);

  const expired = (link: CachedLink) =>
    link.guard !== undefined && hasExpired(link.guard.expiresAtMs, options.now());

  return {
    /** GET or HEAD of a link with a guard. */
    async get(request: FastifyRequest, reply: FastifyReply, code: string, link: CachedLink) {
      if (expired(link)) return sendGone(request, reply, 'expired');
      if (link.guard?.passwordHash) return sendForm(reply, 200, code, formAction(request, code, link));
      return follow(options, request, reply, link, options.redirectStatus);
    },

    /** POST of the password form; 405 for a link without a password. */
    async post(request: FastifyRequest, reply: FastifyReply, code: string, link: CachedLink) {
      if (expired(link)) return sendGone(request, reply, 'expired');
      const hash = link.guard?.passwordHash;
      if (!hash) {
        return reply.code(405).header('allow', 'GET, HEAD').header('cache-control', 'no-store').send();
      }
      let refused: { retryAfter: number; message: string } | undefined;
      try {
        refused = await gate.refusal(request, limitKey(link));
      } catch (error) {
        if (error instanceof UnavailableError) return sendUnavailable(reply, error);
        throw error;
      }
      if (refused) {
        reply.header('retry-after', String(refused.retryAfter));
        return sendForm(reply, 429, code, formAction(request, code, link), {
          code: 'throttled',
          message: refused.message,
        });
      }
      const body = request.body as Record<string, unknown> | undefined;
      const given = typeof body?.password === 'string' ? body.password : '';
      if (given === '' || given.length > 1024 || !(await verifyPassword(given, hash))) {
        await gate.wrong(limitKey(link)).catch(() => undefined);
        return sendForm(reply, 401, code, formAction(request, code, link), {
          code: 'wrong-password',
          message: 'That is not the password of this link.',
        });
      }
      await gate.right(request, limitKey(link));
      // A POST is answered with 303: the browser then GETs the target, never re-posting the password.
      return follow(options, request, reply, link, 303);
    },
  };
}

export type GuardedRedirects = ReturnType<typeof guardedRedirects>;
