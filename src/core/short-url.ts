import { DEFAULT_DOMAIN_ID } from './link-key.ts';

/**
 * Public addresses of a link (docs/api.md §2.2, §12): its domain's origin + "/" + code, and its QR
 * image. The default domain's origin is BASE_URL's; an added domain's is its host with https or http.
 */

/** Where each domain's short URLs start (features/domains' registry knows them all). */
export interface LinkOrigins {
  /** Without a trailing slash. */
  origin(domainId: number): string;
  /** The host a link on the domain is shown under. */
  hostOf(domainId: number): string;
}

/** BASE_URL alone: every link on the default domain (tests, and surfaces that know no other). */
export function baseOrigins(baseUrl: URL): LinkOrigins {
  const origin = baseUrl.href.replace(/\/$/, '');
  return { origin: () => origin, hostOf: () => baseUrl.host };
}

interface Addressed {
  domainId: number;
  code: string;
}

export function shortUrl(origins: LinkOrigins, link: Addressed): string {
  return `${origins.origin(link.domainId)}/${link.code}`;
}

export function qrCodeUrl(origins: LinkOrigins, link: Addressed): string {
  return `${origins.origin(link.domainId)}/qrcode/${link.code}.png`;
}

/** `?domain=<host>` for a link off the default domain ('' on it): how pages and the API address it. */
export function domainQuery(origins: LinkOrigins, link: Addressed): string {
  return link.domainId === DEFAULT_DOMAIN_ID
    ? ''
    : `?domain=${encodeURIComponent(origins.hostOf(link.domainId))}`;
}
