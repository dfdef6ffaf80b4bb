import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';

/**
 * Blocklist files (SPEC §13, "Blocklists"): hosts files, plain lists of hosts and AdBlock host rules
 * (`||host^`), told apart line by line so a mixed file reads too. Each line gives host rules, or is
 * skipped with a reason, or is a blank line or a comment. Hosts are stored in the form a URL's
 * hostname is matched in: lower case, punycode, no trailing dot, IPv6 in brackets.
 */

/** A blocked host: the host itself (`subdomains` false), or the host and all its subdomains. */
export interface HostRule {
  host: string;
  subdomains: boolean;
}

/** A line of a blocklist that gave no rule, and why. */
export interface SkippedLine {
  line: number;
  reason:
    | 'invalid'
    | 'ip-range'
    | 'local-name'
    | 'options'
    | 'exception'
    | 'cosmetic'
    | 'url'
    | 'wildcard'
    | 'too-long';
}

/** What a blocklist file gave: its rules, how many lines gave rules or were skipped, and which. */
export interface ParsedBlocklist {
  rules: HostRule[];
  applied: number;
  skipped: number;
  /** at most the first 1000 */
  skippedLines: SkippedLine[];
  lines: number;
}

type Reason = SkippedLine['reason'];
/** What one line came to: rules added, nothing to read (blank, comment), or a reason to skip it. */
type Outcome = 'applied' | 'ignored' | Reason;
/** Why a name is no host (an object, since a single-label host may be spelt like a reason). */
type Skip = { readonly reason: 'invalid' | 'too-long' };
const INVALID: Skip = { reason: 'invalid' };
const TOO_LONG: Skip = { reason: 'too-long' };
/** A name to convert from an IDN before it can be checked. */
const NON_ASCII: Skip = { reason: 'invalid' };

const MAX_LINE = 4096;
const MAX_HOST = 253;
const MAX_LABEL = 63;
const MAX_SKIPPED_LINES = 1000;
/** Names hosts files give their own machine, never a site to block. */
const LOCAL_NAMES = new Set(['localhost', 'localhost.localdomain', 'local', 'broadcasthost', '0.0.0.0']);
/** The AdBlock options that still block the whole host. */
const WHOLE_HOST_OPTIONS = new Set(['all', 'document', 'doc', 'important', 'popup']);
const WHITESPACE = /\s+/;
const HAS_WHITESPACE = /\s/;
/** An element-hiding (cosmetic) rule's separator: `##`, `#@#`, `#?#`, `#$#`, `#%#` and their mixes. */
const COSMETIC = /^[^\s#]*#@?[?$%]{0,2}#/;

/** Reads a blocklist file; never throws, whatever the bytes. */
export function parseBlocklist(text: string): ParsedBlocklist {
  const rules: HostRule[] = [];
  const skippedLines: SkippedLine[] = [];
  let applied = 0;
  let skipped = 0;
  let lines = 0;
  // Line by line without an array of every line: a million lines kept alive would cost the GC dearly.
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (start < text.length) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    lines++;
    const outcome = end - start > MAX_LINE ? 'invalid' : readLine(text.slice(start, end), rules);
    if (outcome === 'applied') applied++;
    else if (outcome !== 'ignored') {
      skipped++;
      if (skippedLines.length < MAX_SKIPPED_LINES) skippedLines.push({ line: lines, reason: outcome });
    }
    start = end + 1;
  }
  return { rules, applied, skipped, skippedLines, lines };
}

/**
 * One host as an operator types it ("evil.example", "*.evil.example", "||evil.example^", an IDN, an
 * IPv4 or IPv6 address): its rule, or undefined when it is no host to block.
 */
export function hostRule(input: string): HostRule | undefined {
  const rules: HostRule[] = [];
  return readLine(input, rules) === 'applied' && rules.length === 1 ? rules[0] : undefined;
}

/**
 * A URL's hostname in the form rules are stored in (lower case, punycode, no trailing dot, IPv6 in
 * brackets), to match it against them; undefined when it is no host name.
 */
export function ruleHost(hostname: string): string | undefined {
  const host = normalise(hostname);
  return typeof host === 'string' ? host : undefined;
}

/** Reads one line, adding its rules to `into`. */
function readLine(raw: string, into: HostRule[]): Outcome {
  if (raw.length > MAX_LINE) return 'invalid';
  const line = raw.trim();
  if (line === '') return 'ignored';
  const first = line[0];
  if (first === '#' || first === '!') return 'ignored';
  if (first === '[' && line.endsWith(']') && isIP(line.slice(1, -1)) !== 6) return 'ignored';
  if (line.startsWith('@@')) return 'exception';
  if (line.indexOf('#') > 0 && COSMETIC.test(line)) return 'cosmetic';
  if (line.startsWith('||')) return adblockLine(line.slice(2), into);
  if (first === '|') return 'url';
  if (!HAS_WHITESPACE.test(line)) return plainLine(line, into);
  const tokens = line.split(WHITESPACE);
  for (let i = 1; i < tokens.length; i++) if ((tokens[i] as string)[0] === '#') tokens.length = i;
  if (tokens.length > 1) return addressKind(tokens[0] as string) !== 0 ? hostsLine(tokens, into) : 'invalid';
  return plainLine(tokens[0] as string, into);
}

/** 4 or 6 when `text` is an IPv4 or IPv6 address, else 0 (without the costly test for most names). */
function addressKind(text: string): number {
  if (text.includes(':')) return isIP(text);
  const last = text.charCodeAt(text.length - 1);
  return last >= 0x30 && last <= 0x39 ? isIP(text) : 0;
}

/** `<address> <host> [<host>…]`: each host blocked exactly; the line applies when one host does. */
function hostsLine(tokens: string[], into: HostRule[]): Outcome {
  let outcome: Outcome | undefined;
  for (let i = 1; i < tokens.length; i++) {
    const added = addHost(tokens[i] as string, false, into);
    if (added === 'applied' || outcome === undefined) outcome = added;
  }
  return outcome ?? 'invalid';
}

/** What follows `||`: `host^`, optionally with options that still mean the whole host. */
function adblockLine(rest: string, into: HostRule[]): Outcome {
  const dollar = rest.indexOf('$');
  let pattern = dollar < 0 ? rest : rest.slice(0, dollar);
  if (pattern.endsWith('|')) pattern = pattern.slice(0, -1);
  if (pattern.endsWith('^')) pattern = pattern.slice(0, -1);
  if (/[/:?^|]/.test(pattern)) return 'url';
  if (pattern.startsWith('*.')) pattern = pattern.slice(2);
  if (pattern.includes('*')) return 'wildcard';
  if (dollar >= 0 && !wholeHostOptions(rest.slice(dollar + 1))) return 'options';
  return addHost(pattern, true, into);
}

/** Whether every option of `$a,b,c` still blocks the whole host. */
function wholeHostOptions(options: string): boolean {
  return options.split(',').every((option) => WHOLE_HOST_OPTIONS.has(option.trim().toLowerCase()));
}

/** A line of one host: a domain with its subdomains, an address exactly, or what cannot be blocked. */
function plainLine(token: string, into: HostRule[]): Outcome {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(token)) return 'url';
  const slash = token.indexOf('/');
  if (slash >= 0) return addressKind(token.slice(0, slash)) !== 0 ? 'ip-range' : 'url';
  const dash = token.indexOf('-');
  if (dash > 0 && addressKind(token.slice(0, dash)) === 4 && addressKind(token.slice(dash + 1)) === 4) {
    return 'ip-range';
  }
  let host = token;
  if (host.startsWith('*.')) host = host.slice(2);
  else if (host.startsWith('.')) host = host.slice(1);
  if (host.includes('*')) return 'wildcard';
  if (host.includes('$')) return 'options';
  return addHost(host, true, into);
}

/** Adds one host's rule: addresses always exactly, names as asked; local names are skipped. */
function addHost(input: string, subdomains: boolean, into: HostRule[]): Outcome {
  const host = normalise(input);
  if (typeof host !== 'string') return host.reason;
  if (LOCAL_NAMES.has(host)) return 'local-name';
  const address = host.startsWith('[') || addressKind(host) === 4;
  // Single-label names (localhost, ip6-loopback, an intranet's hosts) are no site on the web.
  if (!address && !host.includes('.')) return 'local-name';
  into.push({ host, subdomains: subdomains && !address });
  return 'applied';
}

/** A host's stored form, or why it is none. */
function normalise(input: string): string | Skip {
  if (input.length === 0 || input.length > MAX_LINE) return INVALID;
  if (input.startsWith('[')) return input.endsWith(']') ? ipv6(input.slice(1, -1)) : INVALID;
  if (input.includes(':')) return ipv6(input);
  const host = checkLabels(input);
  if (host !== NON_ASCII) return host;
  const ascii = idnToAscii(input);
  if (ascii === '') return INVALID;
  const checked = checkLabels(ascii);
  return checked === NON_ASCII ? INVALID : checked;
}

/** An internationalized name in punycode, or '' when it holds what no host name may. */
function idnToAscii(input: string): string {
  // domainToASCII reads a URL's host: it would decode %xx and read numbers as addresses.
  for (let i = 0; i < input.length; i++) {
    const c = input.charCodeAt(i);
    const letterOrDigit = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
    if (c < 0x80 && !letterOrDigit && c !== 0x2d && c !== 0x2e && c !== 0x5f) return '';
    // C1 controls and the replacement character (bytes that were not text).
    if ((c >= 0x80 && c <= 0x9f) || c === 0xfffd) return '';
  }
  try {
    return domainToASCII(input);
  } catch {
    return '';
  }
}

/** An IPv6 address in brackets, as a URL's hostname gives it. */
function ipv6(address: string): string | Skip {
  if (isIP(address) !== 6 || address.includes('%')) return INVALID;
  try {
    return new URL(`http://[${address}]/`).hostname;
  } catch {
    return INVALID;
  }
}

/**
 * An ASCII name in lower case without its trailing dot when its labels are 1–63 of [a-z0-9_-] and
 * it is at most 253 long, or an IPv4 address; NON_ASCII when it must be converted from an IDN first.
 */
function checkLabels(input: string): string | Skip {
  const host = input.endsWith('.') ? input.slice(0, -1) : input;
  let label = 0;
  let digits = true;
  let upper = false;
  let tooLong = host.length > MAX_HOST;
  for (let i = 0; i < host.length; i++) {
    const c = host.charCodeAt(i);
    if (c === 0x2e) {
      if (label === 0) return INVALID;
      label = 0;
      digits = true;
      continue;
    }
    const digit = c >= 0x30 && c <= 0x39;
    if (c >= 0x41 && c <= 0x5a) upper = true;
    else if (c > 0x7f) return NON_ASCII;
    else if (!digit && !(c >= 0x61 && c <= 0x7a) && c !== 0x2d && c !== 0x5f) return INVALID;
    digits &&= digit;
    if (++label > MAX_LABEL) tooLong = true;
  }
  if (label === 0) return INVALID;
  // A name ending in a number is an address, or what a URL would read as one ("1.2.3" is 1.2.0.3).
  if (digits) return isIP(host) === 4 ? host : INVALID;
  if (tooLong) return TOO_LONG;
  return upper ? host.toLowerCase() : host;
}
