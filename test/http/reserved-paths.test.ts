import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isLinkCode, RESERVED_PATHS } from '../../src/core/short-code.ts';
import { startTestApp, type TestApp } from '../helper.ts';

/** No code can shadow a route of Snip (docs/api.md §8.1): every first path segment it serves is reserved. */

describe('reserved paths', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
    await t.app.ready();
  });
  after(() => t.close());

  /** The first segments of every registered route, read from the router's tree. */
  function firstSegments(): string[] {
    const tree = t.app.printRoutes({ commonPrefix: false });
    return [...tree.matchAll(/^ {4}[├└]── ([^\s(]+)/gm)]
      .map((match) => (match[1] ?? '').split('/')[0] ?? '')
      .filter((segment) => segment !== '' && !segment.startsWith(':'));
  }

  it('hold every route Snip has', () => {
    const segments = firstSegments();
    assert.ok(
      segments.includes('api') && segments.includes('dashboard'),
      `routes read: ${segments.join(', ')}`,
    );
    for (const segment of segments)
      assert.ok(RESERVED_PATHS.has(segment.toLowerCase()), `${segment} is not reserved`);
  });

  it('are no link code in any case, while other codes of 3-64 characters are', () => {
    for (const path of RESERVED_PATHS) {
      assert.equal(isLinkCode(path), false, path);
      assert.equal(isLinkCode(path.toUpperCase()), false, path);
    }
    for (const code of ['abc', 'Docs2', 'my_link-1', 'a'.repeat(64), 'aB3dE5f'])
      assert.equal(isLinkCode(code), true, code);
    for (const code of ['ab', 'a'.repeat(65), 'a.b', 'a/b', 'ünï'])
      assert.equal(isLinkCode(code), false, code);
  });
});
