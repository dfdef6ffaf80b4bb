import type { Domain } from '../../core/entities.ts';
import { CHALLENGE_LABEL } from './domains.ts';

/** A domain as the API and `snip domain … --json` show it (docs/api.md §12). */
export function domainJson(domain: Domain, links: number) {
  return {
    host: domain.host,
    shared: domain.shared,
    verified: domain.verifiedAt !== null,
    https: domain.https,
    root_redirect: domain.rootRedirect,
    not_found_redirect: domain.notFoundRedirect,
    verification:
      domain.verifiedAt === null
        ? { record: `${CHALLENGE_LABEL}.${domain.host}`, value: domain.verificationToken }
        : null,
    links,
  };
}

export type DomainJson = ReturnType<typeof domainJson>;
