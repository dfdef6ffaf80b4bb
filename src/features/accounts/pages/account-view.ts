import type { FastifyReply } from 'fastify';
import { KEY_PREFIX_LENGTH } from '../../../core/api-key.ts';
import type { ApiKeyInfo } from '../../../core/entities.ts';
import { refusedOn } from '../../../web/page-refusals.ts';
import { sendPage } from '../../../web/send-page.ts';
import { frameOf } from '../../../web/session/handlers.ts';
import type { SessionDeps, SignedIn } from '../../../web/session/session-cookie.ts';
import type { ApiAccess } from '../api-access.ts';
import { PASSWORD_MIN, type SignInService } from '../sign-in.ts';
import { type AccountView, accountPage } from './account-page.ts';
import type { FreshKey } from './api-access-card.ts';

/** What the routes of /account share: their services, and Account Settings rendered for one account. */

export interface AccountRouteOptions extends SessionDeps {
  keys: ApiAccess;
  auth: SignInService;
}

/** The one-time key, if it is still one of the live keys: one rotated or revoked since is not shown. */
export function freshOf(key: string | undefined, live: readonly ApiKeyInfo[]): FreshKey | undefined {
  const info = key === undefined ? undefined : live.find((k) => k.prefix === key.slice(0, KEY_PREFIX_LENGTH));
  return key !== undefined && info ? { key, info } : undefined;
}

export function accountRenderer(keys: ApiAccess) {
  async function render(
    reply: FastifyReply,
    user: SignedIn,
    status: number,
    extra: Partial<AccountView> = {},
  ) {
    const live = extra.keys ?? (await keys.keys(user.account));
    const frame = frameOf(user);
    const view = { frame, account: user.account, minPassword: PASSWORD_MIN, ...extra, keys: live };
    return sendPage(reply, status, accountPage(view));
  }

  return {
    render,

    /** After a refused key form: the page again, the reason in API Access. */
    refused(reply: FastifyReply, user: SignedIn, error: unknown, extra: Partial<AccountView> = {}) {
      const { status, error: shown } = refusedOn(reply, error);
      return render(reply, user, status, { ...extra, error: shown });
    },
  };
}
