import type { LinkAddress, LinkResource } from '../../links/index.ts';
import { kuttError } from './kutt-errors.ts';

/**
 * A Snip link in Kutt's shape (server/utils/utils.js, sanitize.link), and the `id` a Kutt client
 * passes back in a path. Kutt's id is a UUID; Snip addresses a link by its code and domain, so the
 * id is the code for a link on the workspace's default domain and `code@host` for one on another:
 * both go into a path as they are (the kutt package does not encode them), and neither part can
 * hold an "@".
 */

export interface KuttLink {
  id: string;
  address: string;
  banned: boolean;
  created_at: string;
  updated_at: string;
  password: boolean;
  description: string | null;
  expire_in: string | null;
  target: string;
  visit_count: number;
  /** The host of a domain other than the workspace's default; null on the default. */
  domain: string | null;
  /** The short URL. */
  link: string;
}

export function kuttId(code: string, host: string, defaultHost: string): string {
  return host === defaultHost ? code : `${code}@${host}`;
}

export function kuttLink(link: LinkResource, defaultHost: string): KuttLink {
  const onDefault = link.domain === defaultHost;
  return {
    id: kuttId(link.short_code, link.domain, defaultHost),
    address: link.short_code,
    banned: link.disabled !== null,
    created_at: link.created_at,
    updated_at: link.updated_at,
    password: link.has_password,
    description: link.title === '' ? null : link.title,
    expire_in: link.expires_at,
    target: link.long_url,
    visit_count: link.clicks,
    domain: onDefault ? null : link.domain,
    link: link.short_url,
  };
}

const CODE = /^[A-Za-z0-9_-]{1,64}$/;
const HOST = /^[A-Za-z0-9.-]{1,253}(:\d{1,5})?$/;

/** The link an `id` names; 400 "ID is invalid." for one that cannot name any. */
export function linkAddressOf(id: string): LinkAddress {
  const at = id.lastIndexOf('@');
  const code = at < 0 ? id : id.slice(0, at);
  const host = at < 0 ? undefined : id.slice(at + 1);
  if (!CODE.test(code) || (host !== undefined && !HOST.test(host))) throw kuttError(400, 'ID is invalid.');
  return { code, domain: host?.toLowerCase() };
}
