import type { Authenticated } from '../../../core/ports/key-auth.ts';
import type { Scope } from '../../../core/scopes.ts';
import type { CompatDeps } from '../compat-deps.ts';
import { isEmpty, type YourlsParams } from './yourls-params.ts';

/**
 * Who calls, as YOURLS tells it (yourls_is_valid_user), in its order: a time-limited signature
 * (`timestamp` + `signature`), a signature alone, then `username` + `password`. A signature alone is
 * a Snip key; the username is a Snip account's email, acting with its personal workspace's main key.
 * A time-limited signature is a hash of the plain key, which Snip never keeps (only its SHA-256): it
 * cannot be checked, so it is answered as no credentials at all.
 */

export function authenticate(
  deps: Pick<CompatDeps, 'keys' | 'passwordKeys'>,
  params: YourlsParams,
  clientAddress: string,
  scope: Scope | undefined,
): Promise<Authenticated> {
  const signature = params.get('signature');
  const timed = !isEmpty(params.get('timestamp')) && !isEmpty(signature);
  if (!timed && !params.has('timestamp') && signature !== undefined && !isEmpty(signature)) {
    return deps.keys.authenticate(signature, clientAddress, scope);
  }
  const username = params.get('username');
  const password = params.get('password');
  if (
    !timed &&
    username !== undefined &&
    password !== undefined &&
    !isEmpty(username) &&
    !isEmpty(password)
  ) {
    return deps.passwordKeys(username, password, clientAddress, scope);
  }
  // No key Snip can check: 301, through the same limiter of missing and wrong keys.
  return deps.keys.authenticate(undefined, clientAddress, scope);
}

/** YOURLS's words for a failed log-in: they depend on whether a username or password was sent. */
export function logInMessage(params: YourlsParams): string {
  return params.has('username') || params.has('password') ? 'Invalid username or password' : 'Please log in';
}
