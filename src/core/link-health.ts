import type { InspectFailureCode } from './ports/inspector.ts';

/**
 * A link's health (docs/api.md §21): its targets checked again on a schedule. The rule of state is
 * here, pure: two failed checks in a row make a link broken, the first success makes it ok again;
 * a change of state keeps its time and what made it.
 */

export type HealthState = 'ok' | 'broken' | 'unknown';

/** What a create would answer for a target now: 306–311 or 316. */
export type HealthCode = InspectFailureCode | '310';

export interface LinkHealth {
  state: HealthState;
  /** The latest check; null: never checked since the link was made or retargeted. */
  checkedAt: Date | null;
  /** The latest check's code; null when its targets passed (or it was never checked). */
  code: HealthCode | null;
  /** The HTTP status the latest check's failing target (or the link's own) answered; null: none. */
  status: number | null;
  /** Failed checks in a row. */
  failures: number;
  /** The last change of state, and the code and status that made it. */
  since: Date | null;
  cause: { code: HealthCode | null; status: number | null } | null;
}

export const UNKNOWN_HEALTH: LinkHealth = Object.freeze({
  state: 'unknown',
  checkedAt: null,
  code: null,
  status: null,
  failures: 0,
  since: null,
  cause: null,
});

/** One check of a link's targets: the first failing one's code, else none; a status when one answered. */
export interface CheckResult {
  code: HealthCode | null;
  status: number | null;
  /** Which target failed, for the link page: the link's own url, a rule's or a variant's. */
  target?: string;
}

/** Failed checks in a row that make a link broken. */
export const FAILURES_TO_BREAK = 2;

/** What a check changed: the new health, and the event it makes, if any. */
export interface HealthStep {
  health: LinkHealth;
  event: 'link.broken' | 'link.recovered' | null;
}

export function nextHealth(before: LinkHealth, result: CheckResult, now: number): HealthStep {
  const at = new Date(now);
  const failures = result.code === null ? 0 : before.failures + 1;
  const state: HealthState =
    result.code === null ? 'ok' : failures >= FAILURES_TO_BREAK ? 'broken' : before.state;
  const changed = state !== before.state;
  const health: LinkHealth = {
    state,
    checkedAt: at,
    code: result.code,
    status: result.status,
    failures,
    since: changed ? at : before.since,
    cause: changed ? { code: result.code, status: result.status } : before.cause,
  };
  const event =
    changed && state === 'broken'
      ? 'link.broken'
      : changed && before.state === 'broken'
        ? 'link.recovered'
        : null;
  return { health, event };
}

/** Why a link is broken, in plain words, for its page and the digest mail. */
export function healthReason(code: HealthCode | null, status: number | null): string {
  switch (code) {
    case null:
      return 'its targets answer';
    case '307':
      return 'the page is gone (404 Not Found)';
    case '308':
      return 'the site blocks visitors it takes for robots (ModSecurity)';
    case '309':
      return 'the site answers with a Cloudflare challenge';
    case '310':
      return 'the target is on a social network';
    case '311':
      return 'the page is empty';
    case '316':
      return 'the target is on a blocklist';
    default:
      return status === null ? 'the site cannot be reached' : `the site answers with an error (${status})`;
  }
}
