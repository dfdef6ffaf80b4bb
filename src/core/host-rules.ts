/**
 * The blocklist's host rules as a compact matching set (SPEC §13, "Blocklists"): every redirect asks
 * whether its target host is blocked, so a lookup must cost well under a microsecond and a million
 * rules must fit in well under 64 MB.
 *
 * A string set would hold every host as a string (about 53 MB for a million) and would slice each
 * parent domain out of the host to look it up. Instead each rule is kept as a 64-bit hash — two
 * independent 32-bit hashes — in an open-addressing table of typed arrays (9 bytes a slot, at most
 * half full: about 19 MB for a million rules). The hashes run over a host's characters from its
 * end towards its start, so one right-to-left pass over a looked-up host yields the hash of every
 * parent domain along the way, with no string built.
 *
 * A false match needs two different hosts with the same 64-bit hash: odds of about n / 2^64 per
 * lookup with n rules (1 in 10^13 with a million rules), which is accepted.
 */

import type { HostRule } from './blocklist-format.ts';

/** Flags of a slot: the host itself is blocked, and/or the host with all its subdomains. */
const EXACT = 1;
const DOMAIN = 2;
const DOT = 0x2e;
const MIN_CAPACITY = 16;

/** The starting states and multipliers of the two hashes (FNV-1a, and a multiply-xorshift). */
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;
const MIX_SEED = 0x9747b28c | 0;
const MIX_PRIME = 0x5bd1e995;

/** The final scrambling of a 32-bit hash (a bijection, so it adds no collision). */
function finish(h: number): number {
  let x = h ^ (h >>> 16);
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  return x ^ (x >>> 16);
}

/** The smallest power of two that holds `entries` at most half full. */
function capacityFor(entries: number): number {
  let capacity = MIN_CAPACITY;
  while (capacity < entries * 2) capacity *= 2;
  return capacity;
}

/**
 * An immutable-in-use set of host rules: built once with `add` (or `HostRuleSet.of`), then asked
 * `matches` on every redirect. Hosts are given in the form `ruleHost()` returns.
 */
export class HostRuleSet {
  /** A set with no rules, shared; adding to it throws. */
  static readonly EMPTY: HostRuleSet = new HostRuleSet(0);

  private hi: Int32Array;
  private lo: Int32Array;
  private flags: Uint8Array;
  private mask: number;
  private slots = 0;
  private rules = 0;

  /** An empty set sized for `expectedSize` rules without growing. */
  constructor(expectedSize = 0) {
    const capacity = capacityFor(Math.max(0, Math.min(expectedSize, 2 ** 24)));
    this.hi = new Int32Array(capacity);
    this.lo = new Int32Array(capacity);
    this.flags = new Uint8Array(capacity);
    this.mask = capacity - 1;
  }

  /** A set holding the given rules. */
  static of(rules: Iterable<HostRule>): HostRuleSet {
    const set = new HostRuleSet(Array.isArray(rules) ? rules.length : 0);
    for (const rule of rules) set.add(rule.host, rule.subdomains);
    return set;
  }

  /** How many distinct rules the set holds: a host blocked both exactly and with its subdomains counts twice. */
  get size(): number {
    return this.rules;
  }

  /** Blocks `host` itself (`subdomains` false) or `host` with all its subdomains (true). */
  add(host: string, subdomains: boolean): void {
    if (this === HostRuleSet.EMPTY) throw new TypeError('HostRuleSet.EMPTY cannot be changed');
    let h1 = FNV_OFFSET;
    let h2 = MIX_SEED;
    for (let i = host.length - 1; i >= 0; i--) {
      const c = host.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, FNV_PRIME);
      h2 = Math.imul(h2 ^ c, MIX_PRIME);
      h2 ^= h2 >>> 15;
    }
    if ((this.slots + 1) * 2 > this.flags.length) this.grow();
    this.put(finish(h1), finish(h2), subdomains ? DOMAIN : EXACT);
  }

  /**
   * Whether `host` (in `ruleHost()` form) is blocked: it is a rule's host, exact or domain, or one of
   * its parent domains is a domain rule.
   */
  matches(host: string): boolean {
    if (this.rules === 0) return false;
    let h1 = FNV_OFFSET;
    let h2 = MIX_SEED;
    for (let i = host.length - 1; i >= 0; i--) {
      const c = host.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, FNV_PRIME);
      h2 = Math.imul(h2 ^ c, MIX_PRIME);
      h2 ^= h2 >>> 15;
      if (i === 0) return this.flagsOf(finish(h1), finish(h2)) !== 0;
      if (host.charCodeAt(i - 1) === DOT && (this.flagsOf(finish(h1), finish(h2)) & DOMAIN) !== 0)
        return true;
    }
    return false;
  }

  /** The flags stored for a hash, 0 when it is not in the table. */
  private flagsOf(hi: number, lo: number): number {
    const { flags, mask } = this;
    let slot = lo & mask;
    for (;;) {
      const found = flags[slot] as number;
      if (found === 0) return 0;
      if (this.lo[slot] === lo && this.hi[slot] === hi) return found;
      slot = (slot + 1) & mask;
    }
  }

  /** Stores a hash's flag, or adds it to the hash's flags when the hash is already there. */
  private put(hi: number, lo: number, flag: number): void {
    const { flags, mask } = this;
    let slot = lo & mask;
    for (;;) {
      const found = flags[slot] as number;
      if (found === 0) {
        this.hi[slot] = hi;
        this.lo[slot] = lo;
        flags[slot] = flag;
        this.slots++;
        this.rules++;
        return;
      }
      if (this.lo[slot] === lo && this.hi[slot] === hi) {
        if ((found & flag) === 0) this.rules++;
        flags[slot] = found | flag;
        return;
      }
      slot = (slot + 1) & mask;
    }
  }

  /** Doubles the table and puts every entry back in its new place. */
  private grow(): void {
    const { hi, lo, flags } = this;
    const capacity = flags.length * 2;
    this.hi = new Int32Array(capacity);
    this.lo = new Int32Array(capacity);
    this.flags = new Uint8Array(capacity);
    this.mask = capacity - 1;
    for (let i = 0; i < flags.length; i++) {
      const flag = flags[i] as number;
      if (flag === 0) continue;
      let slot = (lo[i] as number) & this.mask;
      while (this.flags[slot] !== 0) slot = (slot + 1) & this.mask;
      this.hi[slot] = hi[i] as number;
      this.lo[slot] = lo[i] as number;
      this.flags[slot] = flag;
    }
  }
}
