import { rmSync, writeFileSync } from 'node:fs';
import { openStore } from '../src/adapters/open-store.ts';
import type { NewLink } from '../src/core/entities.ts';
import { isLinkCode } from '../src/core/short-code.ts';
import { urlHash } from '../src/core/target-url.ts';
import { accountOperations } from '../src/features/workspaces/cli/account-operations.ts';

/** Fills a benchmark store through the store's own API: accounts and keys, then links via the bulk path. */

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const CODE_SPACE = 62n ** 7n;
// 62^7 times the golden ratio's fraction, made odd and not a multiple of 31: index → index·STRIDE mod 62^7
// is then a bijection, so codes are unique yet scattered like random ones (B-tree inserts and lookups
// land all over the index), and any index's code can be recomputed without a lookup.
const STRIDE = 2_176_477_521_915n;
const CHUNK = 50_000;
const PLAN = 'bench';

/** The short code of the index-th seeded link. */
export function codeOf(index: number): string {
  let n = Number((BigInt(index + 1) * STRIDE) % CODE_SPACE);
  let code = '';
  for (let i = 0; i < 7; i++) {
    code = ALPHABET[n % 62] + code;
    n = Math.floor(n / 62);
  }
  return code;
}

/** Writes the codes of the given link indexes, one a line (8-byte records), for bench/lua/redirect.lua. */
export function writeCodes(path: string, indexes: Iterable<number>): string {
  writeFileSync(path, `${Array.from(indexes, codeOf).join('\n')}\n`);
  return path;
}

/** `size` distinct link indexes out of [0, count), picked at random. */
export function sampleIndexes(count: number, size: number): Set<number> {
  const picked = new Set<number>();
  while (picked.size < size) picked.add(Math.floor(Math.random() * count));
  return picked;
}

export interface PreparedStore {
  /** Owner of the seeded links. */
  workspaceId: number;
  /** One key per account that POST /create rotates over, so no single key's rate limit is measured. */
  apiKeys: string[];
}

/** Migrates a fresh store and creates a plan with no practical quota or rate limit, and its accounts. */
export async function prepareStore(databaseUrl: string, keyCount: number): Promise<PreparedStore> {
  const store = await openStore(databaseUrl, { prepare: true });
  try {
    const ops = accountOperations(store);
    await ops.savePlan(PLAN, { apiAccess: true, urlQuota: 1_000_000_000, rateLimitPerHour: 1_000_000_000 });
    const owner = await ops.createAccount('seed@bench.example', PLAN);
    const apiKeys: string[] = [];
    for (let i = 0; i < keyCount; i++) {
      apiKeys.push((await ops.createAccount(`creator-${i}@bench.example`, PLAN)).apiKey);
    }
    return { workspaceId: owner.account.workspace.id, apiKeys };
  } finally {
    await store.close();
  }
}

/** A bench link of the default domain: the code of `index`, its target as given (already normal). */
export function benchLink(
  index: number,
  workspaceId: number,
  url: string,
  more: Partial<NewLink> = {},
): NewLink {
  return {
    code: codeOf(index),
    domainId: 0,
    workspaceId,
    groupId: null,
    longUrl: url,
    normalizedUrl: url,
    urlHash: urlHash(url),
    title: '',
    ...more,
  };
}

/** Inserts the links with indexes [from, to) for the account, in chunks through insertLinksBulk. */
export async function seedLinks(databaseUrl: string, workspaceId: number, from: number, to: number) {
  const store = await openStore(databaseUrl, { prepare: false });
  try {
    for (let start = from; start < to; start += CHUNK) {
      const links: NewLink[] = [];
      for (let index = start; index < Math.min(start + CHUNK, to); index++) {
        const link = benchLink(index, workspaceId, `https://example.com/articles/${index}`, {
          title: `Article ${index}`,
        });
        if (!isLinkCode(link.code)) throw new Error(`seed code ${link.code} is reserved; change STRIDE`);
        links.push(link);
      }
      await store.insertLinksBulk(links);
    }
  } finally {
    await store.close();
  }
}

/** Removes a SQLite store: its file, and its WAL and shared-memory files. */
export function removeDatabase(path: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
}
