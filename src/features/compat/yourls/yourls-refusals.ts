import { Refusal, UnavailableError } from '../../../core/errors.ts';
import type { YourlsMembers } from './yourls-encode.ts';
import type { YourlsAnswer } from './yourls-output.ts';

/**
 * Snip's refusals in YOURLS's words (docs/migrating/yourls.md). Who may call is answered as YOURLS's
 * log-in failure (`message` + `errorCode`); what `shorturl` refuses as yourls_add_new_link's
 * failure (`status` fail, a `code` such as `error:keyword`, `errorCode` = `statusCode`). Either way
 * `snipCode` keeps Snip's own code, for whoever wants the precise reason.
 */

/** Refusals of who calls, and their HTTP status. */
const CALLER_STATUS: Readonly<Record<string, number>> = {
  '301': 403,
  '303': 403,
  'sign-in-failed': 403,
  '315': 403,
  'account-suspended': 403,
  '429': 429,
  throttled: 429,
};

/** The codes whose words are YOURLS's own "Please log in" / "Invalid username or password". */
const LOG_IN_CODES = new Set(['301', '303', 'sign-in-failed']);

export function isCallerRefusal(error: unknown): error is Refusal {
  return error instanceof Refusal && Object.hasOwn(CALLER_STATUS, error.code);
}

/** A failure outside of shorturl's own: YOURLS's `{message, errorCode}`, the message also as simple text. */
export function plainFailure(message: string, status: number, snipCode?: string): YourlsAnswer {
  const members: YourlsMembers = { message, errorCode: String(status) };
  if (snipCode !== undefined) members.snipCode = snipCode;
  return { members, simple: message };
}

export function callerFailure(refusal: Refusal, logInMessage: string): YourlsAnswer {
  const message = LOG_IN_CODES.has(refusal.code) ? logInMessage : refusal.message;
  return plainFailure(message, CALLER_STATUS[refusal.code] ?? 403, refusal.code);
}

/** Seconds a client should wait, when waiting helps. */
export function retryAfterOf(error: unknown): number | undefined {
  if (error instanceof UnavailableError) return error.retryAfterSeconds;
  return error instanceof Refusal ? error.facts.retryAfterSeconds : undefined;
}

/** What Snip refuses on create, as yourls_add_new_link's code and status (400 for anything the request asked). */
const CREATE_FAILURES: Readonly<Record<string, { code: string; status: number }>> = {
  '300': { code: 'error:nourl', status: 400 },
  '302': { code: 'error:nourl', status: 400 },
  '304': { code: 'error:quota', status: 403 },
  '305': { code: 'error:noloop', status: 400 },
  '306': { code: 'error:target', status: 400 },
  '307': { code: 'error:target', status: 400 },
  '308': { code: 'error:target', status: 400 },
  '309': { code: 'error:target', status: 400 },
  '310': { code: 'error:social', status: 400 },
  '311': { code: 'error:target', status: 400 },
  '312': { code: 'error:group', status: 400 },
  '313': { code: 'error:keyword', status: 400 },
  '316': { code: 'error:blocked', status: 400 },
  '317': { code: 'error:domain', status: 400 },
  '320': { code: 'error:target', status: 400 },
};

export function createFailureOf(refusal: Refusal): { code: string; status: number } | undefined {
  return CREATE_FAILURES[refusal.code];
}

/** The members every yourls_add_new_link failure starts with, in its order. */
export function failedAddHead(code: string, message: string, status: number): YourlsMembers {
  const errorCode = String(status);
  return { status: 'fail', code, message, errorCode, statusCode: errorCode };
}

export function failedAdd(code: string, message: string, status: number, snipCode: string): YourlsMembers {
  return { ...failedAddHead(code, message, status), snipCode };
}
