/**
 * The rename part of the store contract (docs/api.md §18): a link's new code, its old one kept as
 * an alias that reaches the same link and is never issued again on its domain. Written against the
 * ports only, so the same cases run on SQLite and PostgreSQL. `open` must resolve to a migrated,
 * empty store.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { Link, Workspace } from '../../../src/core/entities.ts';
import type { Store } from '../../../src/core/ports/store.ts';
import { givenAccount, newLink, nextCode, planInput } from './store-contract.ts';

export function runAliasContract(name: string, open: () => Promise<Store>): void {
  describe(`${name} alias contract`, () => {
    let store: Store;
    let ada: Workspace;
    beforeEach(async () => {
      store = await open();
      ada = await givenAccount(store, 'ada@example.com', await store.upsertPlan(planInput()));
    });
    afterEach(async () => {
      await store.close();
    });

    let urls = 0;
    const created = async (code = nextCode(), domainId = 0): Promise<Link> => {
      urls += 1;
      const result = await store.insertLinkWithinQuota(
        newLink(ada.id, `https://example.com/${urls}`, { code, domainId }),
      );
      assert.equal(result.kind, 'created');
      return (result as { link: Link }).link;
    };
    const rename = (link: Pick<Link, 'code' | 'domainId'>, code: string) =>
      store.updateLink(ada.id, link.domainId, link.code, { code });
    const renamed = async (link: Pick<Link, 'code' | 'domainId'>, code: string): Promise<Link> => {
      const result = await rename(link, code);
      assert.equal(result.kind, 'updated');
      return (result as { link: Link }).link;
    };

    it('gives the link a new code and keeps the old one as its alias, reaching the same link', async () => {
      const link = await created('spring-old');
      const moved = await renamed(link, 'spring-new');
      assert.equal(moved.id, link.id);
      assert.equal(moved.code, 'spring-new');
      assert.equal((await store.findLinkByCode(0, 'spring-new'))?.id, link.id);
      assert.equal(await store.findLinkByCode(0, 'spring-old'), undefined);
      assert.equal((await store.findLinkByAlias(0, 'spring-old'))?.id, link.id);
      assert.equal(await store.findLinkByAlias(0, 'spring-new'), undefined);
      assert.deepEqual(await store.aliasesOf([link.id]), new Map([[link.id, ['spring-old']]]));
      assert.equal((await store.findLinkOfWorkspace(ada.id, 0, 'spring-new'))?.id, link.id);
    });

    it('lists aliases oldest first, even for renames within one millisecond', async () => {
      const link = await created('code-a');
      await renamed(link, 'code-b');
      await renamed({ code: 'code-b', domainId: 0 }, 'code-c');
      await renamed({ code: 'code-c', domainId: 0 }, 'code-d');
      const other = await created();
      assert.deepEqual(
        await store.aliasesOf([link.id, other.id]),
        new Map([[link.id, ['code-a', 'code-b', 'code-c']]]),
      );
    });

    it('never issues an alias again: isCodeIssued holds and a create with it is code-taken', async () => {
      const link = await created('kept-code');
      await renamed(link, 'next-code');
      const count = await store.countLiveLinks(ada.id);
      assert.equal(await store.isCodeIssued(0, 'kept-code'), true);
      const again = await store.insertLinkWithinQuota(
        newLink(ada.id, 'https://example.com/another', { code: 'kept-code' }),
      );
      assert.equal(again.kind, 'code-taken');
      // The refused insert rolled back: the quota slot was not taken and no link has the code.
      assert.equal(await store.countLiveLinks(ada.id), count);
      assert.equal(await store.findLinkByCode(0, 'kept-code'), undefined);
    });

    it("answers code-taken for another link's code, a deleted link's, or another link's alias", async () => {
      const link = await created('mine-1');
      const live = await created('live-1');
      const gone = await created('gone-1');
      assert.equal(await store.deleteLink(ada.id, 0, gone.code), true);
      const aliased = await created('alias-1');
      await renamed(aliased, 'alias-2');
      for (const taken of ['live-1', 'gone-1', 'alias-1', 'alias-2']) {
        assert.equal((await rename(link, taken)).kind, 'code-taken', taken);
      }
      // Nothing changed: the link keeps its code and has no alias.
      assert.equal((await store.findLinkByCode(0, 'mine-1'))?.id, link.id);
      assert.deepEqual(await store.aliasesOf([link.id]), new Map());
      assert.equal((await store.findLinkByCode(0, 'live-1'))?.id, live.id);
    });

    it('renames back to one of its own aliases: that one is the code again, the other an alias', async () => {
      const link = await created('first-code');
      await renamed(link, 'second-code');
      const back = await renamed({ code: 'second-code', domainId: 0 }, 'first-code');
      assert.equal(back.code, 'first-code');
      assert.deepEqual(await store.aliasesOf([link.id]), new Map([[link.id, ['second-code']]]));
      assert.equal((await store.findLinkByAlias(0, 'second-code'))?.id, link.id);
      assert.equal(await store.findLinkByAlias(0, 'first-code'), undefined);
    });

    it('keeps the alias issued after the link is deleted, but reaches no link through it', async () => {
      const link = await created('before-del');
      await renamed(link, 'after-del');
      assert.equal(await store.deleteLink(ada.id, 0, 'after-del'), true);
      assert.equal(await store.findLinkByAlias(0, 'before-del'), undefined);
      assert.equal(await store.isCodeIssued(0, 'before-del'), true);
    });

    it('holds an alias on its own domain only', async () => {
      const added = await store.addDomain({
        host: 'go.example.net',
        workspaceId: null,
        shared: true,
        verificationToken: 'token',
        verified: true,
      });
      assert.equal(added.kind, 'added');
      const domainId = (added as { domain: { id: number } }).domain.id;
      const link = await created('same-code');
      await renamed(link, 'other-code');
      assert.equal(await store.isCodeIssued(domainId, 'same-code'), false);
      assert.equal(await store.findLinkByAlias(domainId, 'same-code'), undefined);
      const there = await created('same-code', domainId);
      assert.equal(there.domainId, domainId);
    });
  });
}
