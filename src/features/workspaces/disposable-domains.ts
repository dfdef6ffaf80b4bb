import { createRequire } from 'node:module';
import { domainToASCII, domainToUnicode } from 'node:url';

/**
 * Disposable email domains (SPEC §13, sign-up hygiene), from the maintained `disposable-email-domains`
 * package, read once, on the first check. Its plain list names domains that are disposable, and so is
 * everything under them (an address at x.mailinator.com as much as at mailinator.com); its wildcard
 * list names domains whose subdomains are disposable (`*.33mail.com`), the domain itself not always.
 */

interface Lists {
  /** Disposable, with every domain under it. */
  listed: ReadonlySet<string>;
  /** Every domain under it is disposable. */
  under: ReadonlySet<string>;
}

let lists: Lists | undefined;

function read(require: NodeJS.Require, name: string): Set<string> {
  const list: unknown = require(name);
  if (!Array.isArray(list)) throw new Error(`${name} is not a list of domains`);
  return new Set(list.filter((domain) => typeof domain === 'string').map((domain) => domain.toLowerCase()));
}

function load(): Lists {
  const require = createRequire(import.meta.url);
  return {
    listed: read(require, 'disposable-email-domains/index.json'),
    under: read(require, 'disposable-email-domains/wildcard.json'),
  };
}

/** The domain and each parent domain, longest first: a.b.c → a.b.c, b.c, c. */
function withParents(domain: string): string[] {
  const labels = domain.split('.').filter(Boolean);
  return labels.map((_, index) => labels.slice(index).join('.'));
}

function disposable(domain: string, { listed, under }: Lists): boolean {
  const [self, ...parents] = withParents(domain);
  return (
    (self !== undefined && listed.has(self)) ||
    parents.some((parent) => listed.has(parent) || under.has(parent))
  );
}

/** True when the domain, or a domain it is under, is a listed disposable one (IDN in either form). */
export function isDisposableDomain(domain: string): boolean {
  lists ??= load();
  const lower = domain.trim().toLowerCase().replace(/\.$/, '');
  const ascii = domainToASCII(lower) || lower;
  // The list holds some internationalised domains in Unicode and others in their xn-- form.
  const forms = new Set([lower, ascii, domainToUnicode(ascii) || lower]);
  return [...forms].some((form) => disposable(form, lists as Lists));
}

/** True when the address is at a disposable email domain (or under one); false for anything without "@". */
export function isDisposableEmail(email: string): boolean {
  const at = email.lastIndexOf('@');
  return at >= 0 && isDisposableDomain(email.slice(at + 1));
}
