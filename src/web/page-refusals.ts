import type { FastifyReply } from 'fastify';
import { type AccountErrorCode, isApiErrorCode, Refusal } from '../core/errors.ts';
import { API_STATUS } from '../http/api-statuses.ts';
import type { PageError } from './notices.ts';

/**
 * How the account pages answer a refusal: the HTTP status of its code (an API code keeps its
 * status from docs/api.md §2.3), its code as the page's data-error, its message as the text.
 * The one place a page refusal becomes a status.
 */
const PAGE_STATUS: Readonly<Record<AccountErrorCode, number>> = {
  'sign-in-failed': 401,
  'signup-closed': 403,
  'plan-missing': 503,
  'email-invalid': 400,
  'email-taken': 409,
  'email-disposable': 422,
  'password-invalid': 400,
  'wrong-password': 403,
  throttled: 429,
  'no-api-access': 403,
  'key-name-invalid': 400,
  'scopes-required': 400,
  'too-many-keys': 409,
  'confirm-required': 400,
  'not-found': 404,
  'group-name-invalid': 400,
  'group-api-id-invalid': 400,
  'api-id-taken': 409,
  'plan-name-invalid': 400,
  'number-invalid': 400,
  'no-such-plan': 404,
  'no-such-account': 404,
  'no-such-link': 404,
  forbidden: 403,
  'scope-too-wide': 403,
  'workspace-slug-invalid': 400,
  'workspace-slug-taken': 409,
  'workspace-name-invalid': 400,
  'no-such-workspace': 404,
  'role-invalid': 400,
  'already-member': 409,
  'no-such-member': 404,
  'invitation-gone': 410,
  'invitation-other-email': 403,
  'link-invalid': 400,
  'email-unverified': 403,
  'oidc-failed': 400,
  'account-suspended': 403,
  'host-invalid': 400,
  'blocklist-name-invalid': 400,
  'no-such-blocklist': 404,
  'no-such-report': 404,
  'action-invalid': 400,
  'reason-invalid': 400,
  'no-such-user': 404,
  'personal-workspace': 409,
  'code-invalid': 401,
  'two-factor-on': 409,
  'sign-in-expired': 401,
  'mail-off': 409,
};

export interface PageRefusal {
  status: number;
  error: PageError;
  /** Retry-After, when waiting helps. */
  retryAfterSeconds?: number;
}

export function pageRefusal(refusal: Refusal): PageRefusal {
  const { code } = refusal;
  return {
    status: isApiErrorCode(code) ? API_STATUS[code] : PAGE_STATUS[code],
    error: { code, message: refusal.message },
    retryAfterSeconds: refusal.facts.retryAfterSeconds,
  };
}

/** The page answer of a refusal, with Retry-After set on the reply when waiting helps; anything else is rethrown. */
export function refusedOn(reply: FastifyReply, error: unknown): PageRefusal {
  if (!(error instanceof Refusal)) throw error;
  const refused = pageRefusal(error);
  if (refused.retryAfterSeconds !== undefined) reply.header('retry-after', String(refused.retryAfterSeconds));
  return refused;
}

/**
 * A page's renderer for its refused forms: the same page again, with the refusal's status and its
 * reason shown (`extra` keeps what the form sent).
 */
export function rerenderRefused<Where, View extends { error?: PageError }>(
  render: (reply: FastifyReply, where: Where, status: number, extra: Partial<View>) => unknown,
) {
  return (reply: FastifyReply, where: Where, error: unknown, extra: Partial<View> = {}) => {
    const { status, error: shown } = refusedOn(reply, error);
    return render(reply, where, status, { ...extra, error: shown });
  };
}
