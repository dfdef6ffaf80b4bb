/**
 * The refusal catalogue: every code a refused request is answered with, and its default wording.
 * No HTTP here: each surface maps a code to its own answer once (the /create envelope, the pages).
 * Services throw a Refusal; what a surface needs besides the code (the window spent, when to retry,
 * the link already there) travels as facts, never as ready-made headers.
 */

/** The numbered codes of the API (docs/api.md §2.3). */
export const API_ERRORS = {
  '300': 'The request is malformed.',
  '301': 'No API key was sent.',
  '302': 'The url field is missing or empty.',
  '303': 'The API key is not valid.',
  '304': 'The account has reached its link quota.',
  '305': 'This URL was already shortened.',
  '306': 'The target page could not be fetched.',
  '307': 'The target page answers 404 Not Found.',
  '308': 'The target page is protected by ModSecurity.',
  '309': 'The target page answers with a Cloudflare challenge.',
  '310': 'Links to social networks are not accepted.',
  '311': 'The target page is empty (Content-Length: 0).',
  '312': 'No group of this account has that ID or API identifier.',
  '313': 'The slug is taken or reserved.',
  '314': 'This account has no such link, group or domain.',
  '315': 'The API key lacks the scope this request needs.',
  '316': 'The target (or a redirect on the way to it) is on a blocklist.',
  '317': 'The domain is unknown, not verified, or not this workspace’s.',
  '318': 'The domain still has links: delete or move them first.',
  '319': 'The change would leave the workspace without an owner.',
  '320': 'Snip may not send to this URL: it is not http(s) or names a non-public address.',
  '321': 'No click of this workspace within the conversion window has that click id.',
  '322': 'This customer has no lead, and no click id was given.',
  '429': 'Too many requests.',
} as const;

export type ApiErrorCode = keyof typeof API_ERRORS;

export const API_ERROR_CODES = Object.keys(API_ERRORS) as ApiErrorCode[];

/** Codes only the management API answers (docs/api.md §7.1): /create names no slug and no resource. */
export const MANAGEMENT_ONLY_CODES: readonly ApiErrorCode[] = [
  '313',
  '314',
  '318',
  '319',
  '320',
  '321',
  '322',
];

/** The codes POST /create can answer. */
export const CREATE_ERROR_CODES = API_ERROR_CODES.filter((code) => !MANAGEMENT_ONLY_CODES.includes(code));

/** Refusals of the account pages and the operator commands; pages carry the code as data-error. */
export const ACCOUNT_ERRORS = {
  'sign-in-failed': 'The email or the password is not right.',
  'signup-closed': 'Sign-up is closed on this Snip.',
  'plan-missing': 'The plan for new accounts does not exist.',
  'email-invalid': 'That is not an email address.',
  'email-taken': 'An account with this email exists.',
  'email-disposable': 'Addresses at disposable email services are not accepted.',
  'password-invalid': 'The password is too short or too long.',
  'wrong-password': 'The current password is not right.',
  throttled: 'Too many attempts. Try again later.',
  'no-api-access': 'The plan does not include API access.',
  'key-name-invalid': 'A key name has 1-60 characters.',
  'scopes-required': 'Choose at least one scope.',
  'too-many-keys': 'A workspace holds at most 10 keys; revoke one first.',
  'confirm-required': 'Tick the box to confirm.',
  'not-found': 'Nothing of this account has that address.',
  'group-name-invalid': 'A group name has 1-100 characters.',
  'group-api-id-invalid': 'An API identifier is a lower-case slug.',
  'api-id-taken': 'Another group of this account has that API identifier.',
  'plan-name-invalid': 'A plan name is 1-40 characters of a-z, 0-9, "-" and "_".',
  'number-invalid': 'A whole number of at least 0 is needed.',
  'no-such-plan': 'There is no plan of that name.',
  'no-such-account': 'There is no account with that email.',
  'no-such-link': 'There is no link with that code.',
  forbidden: 'Your role in this workspace does not allow this.',
  'scope-too-wide': 'A key cannot have a scope its maker’s role does not allow.',
  'workspace-slug-invalid': 'A workspace address is 1-40 lower-case letters, digits and inner hyphens.',
  'workspace-slug-taken': 'Another workspace has that address.',
  'workspace-name-invalid': 'A workspace name has 1-100 characters.',
  'no-such-workspace': 'There is no workspace with that address.',
  'role-invalid': 'A role is owner, admin, member or viewer.',
  'already-member': 'That person is a member already.',
  'no-such-member': 'That person is not a member of this workspace.',
  'invitation-gone': 'This invitation was used, revoked or has expired.',
  'invitation-other-email': 'This invitation is for another email address.',
  'link-invalid': 'This link is not valid: it was used, has expired, or was never made.',
  'email-unverified': 'Confirm your email address first: follow the link we sent.',
  'oidc-failed': 'Signing in with the identity provider did not work.',
  'account-suspended': 'This account is suspended: ask the operator of this Snip.',
  'host-invalid': 'That is not a host name (an IDN, punycode, *.domain or ||domain^ are fine).',
  'blocklist-name-invalid': 'A blocklist name is 1-60 characters of a-z, 0-9, ".", "-" and "_".',
  'no-such-blocklist': 'There is no blocklist of that name.',
  'no-such-report': 'There is no report with that number.',
  'action-invalid': 'An action is disable, suspend, block or dismiss.',
  'reason-invalid': 'A reason has 1-500 characters.',
  'no-such-user': 'There is no user with that email.',
  'personal-workspace': 'A personal workspace goes with its user: delete the user instead.',
  'code-invalid': 'That code is not right, or it was used already.',
  'two-factor-on': 'Two-factor sign-in is on already.',
  'sign-in-expired': 'This sign-in has expired: sign in again.',
  'mail-off': 'This Snip sends no mail, so this cannot be confirmed.',
} as const;

export type AccountErrorCode = keyof typeof ACCOUNT_ERRORS;

export type RefusalCode = ApiErrorCode | AccountErrorCode;

/** The request window a request spent, as the surface reports it (RateLimit-* on HTTP). */
export interface RateState {
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets. */
  resetSeconds: number;
}

export interface RefusalFacts {
  /** The window this (authenticated) request spent. */
  rate?: RateState;
  /** Seconds until the same request can succeed (a spent limit). */
  retryAfterSeconds?: number;
  /** 305: the code of the link that already holds this URL. */
  existingCode?: string;
  /** 305: the domain of that link (core/link-key.ts). */
  existingDomainId?: number;
}

/** A request judged and refused: its code, a human reason (wording is no contract), and facts. */
export class Refusal<Code extends RefusalCode = RefusalCode> extends Error {
  override name = 'Refusal';
  readonly code: Code;
  readonly facts: Readonly<RefusalFacts>;

  constructor(code: Code, message?: string, facts: RefusalFacts = {}) {
    super(message ?? defaultMessage(code));
    this.code = code;
    this.facts = facts;
  }

  /** The same refusal with more facts (e.g. the window spent, known only to the caller). */
  with(facts: RefusalFacts): Refusal<Code> {
    return new Refusal(this.code, this.message, { ...facts, ...this.facts });
  }
}

function defaultMessage(code: RefusalCode): string {
  return code in API_ERRORS ? API_ERRORS[code as ApiErrorCode] : ACCOUNT_ERRORS[code as AccountErrorCode];
}

export function isApiErrorCode(code: string): code is ApiErrorCode {
  return Object.hasOwn(API_ERRORS, code);
}

/** A refusal with one of the API's numbered codes. */
export function isApiRefusal(error: unknown): error is Refusal<ApiErrorCode> {
  return error instanceof Refusal && isApiErrorCode(error.code);
}

/**
 * A dependency the answer needs (the store, shared state) is unreachable. Not a refusal: the request
 * was not judged, so the client should retry later.
 */
export class UnavailableError extends Error {
  override name = 'UnavailableError';
  readonly retryAfterSeconds: number;

  constructor(message: string, retryAfterSeconds = 5, options?: ErrorOptions) {
    super(message, options);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
