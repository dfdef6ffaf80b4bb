/**
 * The domains part of the store contract (docs/api.md §12): the domains' rows (the default one, id
 * 0, first), adding, changing and removing them, the workspaces' default domain, and each domain's
 * own code space: a code is unique per domain (never issued twice there, deleted links included)
 * and the duplicate rule holds per workspace and domain. Written against the ports only, so the
 * same cases run on SQLite and PostgreSQL. `open` must resolve to a migrated, empty store.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { Domain, Link, Plan, Workspace } from '../../../src/core/entities.ts';
import { REDIRECT_LINK_FIELDS, type RedirectLink } from '../../../src/core/ports/link-code-store.ts';
import type { Store } from '../../../src/core/ports/store.ts';
import { givenAccount, newLink, nextCode, planInput } from './store-contract.ts';

/** The fields of a link the redirect reads (RedirectLink), as the embedded look-up answers them. */
function redirectFieldsOf(link: Link): RedirectLink {
  return Object.fromEntries(REDIRECT_LINK_FIELDS.map((field) => [field, link[field]])) as RedirectLink;
}

interface AddOptions {
  workspaceId?: number | null;
  verified?: boolean;
}

export function runDomainContract(name: string, open: () => Promise<Store>): void {
  describe(`${name} domain contract`, () => {
    let store: Store;
    let plan: Plan;
    beforeEach(async () => {
      store = await open();
      plan = await store.upsertPlan(planInput());
    });
    afterEach(async () => {
      await store.close();
    });

    const workspace = (email: string): Promise<Workspace> => givenAccount(store, email, plan);
    /** A domain added by the operator (shared, verified) unless a workspace is named. */
    const added = async (host: string, { workspaceId = null, verified = true }: AddOptions = {}) => {
      const result = await store.addDomain({
        host,
        workspaceId,
        shared: workspaceId === null,
        verificationToken: `token-${host}`,
        verified,
      });
      assert.equal(result.kind, 'added', host);
      return (result as { domain: Domain }).domain;
    };
    const created = async (workspaceId: number, url: string, domainId: number, code = nextCode()) => {
      const result = await store.insertLinkWithinQuota(newLink(workspaceId, url, { domainId, code }));
      assert.equal(result.kind, 'created', `${url} on ${domainId}`);
      assert.ok(result.kind === 'created');
      return result.link;
    };

    describe('domains', () => {
      it('lists the default domain first, with an empty host, then the added ones by id', async () => {
        const [first, ...rest] = await store.listDomains();
        assert.deepEqual(rest, []);
        assert.deepEqual(
          [first?.id, first?.host, first?.workspaceId, first?.shared, first?.verifiedAt === null],
          [0, '', null, true, false],
        );
        const b = await added('b.example.com');
        const a = await added('a.example.com');
        assert.deepEqual(
          (await store.listDomains()).map((domain) => [domain.id, domain.host]),
          [
            [0, ''],
            [b.id, 'b.example.com'],
            [a.id, 'a.example.com'],
          ],
        );
      });

      it('adds a domain, and answers taken for a host the workspace claims already or that is verified', async () => {
        const ada = await workspace('ada@example.com');
        const bob = await workspace('bob@example.com');
        const before = Date.now();
        const domain = await added('go.acme.com', { workspaceId: ada.id, verified: false });
        assert.ok(domain.id > 0);
        assert.ok(domain.createdAt.getTime() >= before - 1000 && domain.createdAt.getTime() <= Date.now());
        assert.deepEqual(domain, {
          id: domain.id,
          host: 'go.acme.com',
          workspaceId: ada.id,
          shared: false,
          verifiedAt: null,
          verificationToken: 'token-go.acme.com',
          https: true,
          rootRedirect: null,
          notFoundRedirect: null,
          createdAt: domain.createdAt,
        });
        const again = { host: 'go.acme.com', shared: false, verificationToken: 't', verified: false };
        assert.deepEqual(await store.addDomain({ ...again, workspaceId: ada.id }), { kind: 'taken' });
        const shared = await added('links.example.org');
        assert.deepEqual([shared.shared, shared.workspaceId], [true, null]);
        assert.ok(shared.verifiedAt instanceof Date, 'an operator adds it verified');
        const verifiedHost = { ...again, host: 'links.example.org' };
        assert.deepEqual(await store.addDomain({ ...verifiedHost, workspaceId: bob.id }), { kind: 'taken' });
        assert.deepEqual(await store.addDomain({ ...verifiedHost, workspaceId: null, shared: true }), {
          kind: 'taken',
        });
        assert.deepEqual((await store.listDomains()).slice(1), [domain, shared]);
      });

      it('takes a removed host back under the same id once verified again, as a new domain', async () => {
        const ada = await workspace('ada@example.com');
        const bob = await workspace('bob@example.com');
        const first = await added('go.acme.com', { workspaceId: ada.id });
        await store.updateDomain(first.id, { https: false, rootRedirect: 'https://acme.com/' });
        assert.equal(await store.removeDomain(first.id), 'removed');
        assert.deepEqual(
          (await store.listDomains()).map((domain) => domain.id),
          [0],
        );
        assert.equal(await store.updateDomain(first.id, { https: true }), undefined, 'removed');
        const claim = await added('go.acme.com', { workspaceId: bob.id, verified: false });
        const at = new Date(Date.UTC(2024, 2, 1));
        const result = await store.verifyDomain(claim.id, at);
        assert.ok(result.kind === 'verified');
        const revived = result.domain;
        assert.deepEqual(
          [revived.id, revived.workspaceId, revived.verifiedAt, revived.https, revived.rootRedirect],
          [first.id, bob.id, at, true, null],
        );
        assert.deepEqual(
          (await store.listDomains()).map((domain) => domain.id),
          [0, first.id],
        );
      });

      it('changes https, the redirects and the verification; undefined for an unknown id', async () => {
        const domain = await added('go.acme.com', { verified: false });
        const plain = await store.updateDomain(domain.id, { https: false });
        assert.deepEqual(plain, { ...domain, https: false });
        const redirects = await store.updateDomain(domain.id, {
          rootRedirect: 'https://acme.com/',
          notFoundRedirect: 'https://acme.com/404',
        });
        assert.deepEqual(redirects, {
          ...domain,
          https: false,
          rootRedirect: 'https://acme.com/',
          notFoundRedirect: 'https://acme.com/404',
        });
        const cleared = await store.updateDomain(domain.id, { rootRedirect: null, https: true });
        assert.deepEqual(cleared, { ...domain, notFoundRedirect: 'https://acme.com/404' });
        const at = new Date(Date.UTC(2024, 2, 1, 12));
        const verified = await store.updateDomain(domain.id, { verifiedAt: at });
        assert.deepEqual(verified?.verifiedAt, at);
        assert.deepEqual(await store.updateDomain(domain.id, {}), verified, 'nothing asked, nothing changed');
        assert.deepEqual((await store.listDomains())[1], verified);
        assert.equal(await store.updateDomain(9999, { https: false }), undefined);
        // The default domain's row holds its own settings.
        const root = await store.updateDomain(0, { rootRedirect: 'https://example.com/home' });
        assert.deepEqual([root?.id, root?.host, root?.rootRedirect], [0, '', 'https://example.com/home']);
      });

      it('removes a domain only without live links, and never the default one', async () => {
        const ada = await workspace('ada@example.com');
        const domain = await added('go.acme.com', { workspaceId: ada.id });
        const link = await created(ada.id, 'https://example.com/a', domain.id);
        assert.equal(await store.removeDomain(domain.id), 'has-links');
        assert.equal((await store.listDomains()).length, 2);
        assert.equal(await store.deleteLink(ada.id, domain.id, link.code), true);
        assert.equal(await store.removeDomain(domain.id), 'removed');
        assert.equal(await store.removeDomain(domain.id), 'not-found', 'removed already');
        assert.equal(await store.removeDomain(0), 'not-found');
        assert.equal(await store.removeDomain(9999), 'not-found');
        assert.deepEqual(
          (await store.listDomains()).map((each) => each.id),
          [0],
        );
      });

      it("keeps each workspace's default domain, and clears it when that domain is removed", async () => {
        const ada = await workspace('ada@example.com');
        const bob = await workspace('bob@example.com');
        const acme = await added('go.acme.com', { workspaceId: ada.id });
        await added('links.example.org');
        assert.deepEqual(await store.listDefaultDomains(), []);
        await store.setDefaultDomain(ada.id, 'go.acme.com');
        await store.setDefaultDomain(bob.id, 'links.example.org');
        const sorted = async () =>
          (await store.listDefaultDomains()).sort((x, y) => x.workspaceId - y.workspaceId);
        assert.deepEqual(await sorted(), [
          { workspaceId: ada.id, host: 'go.acme.com' },
          { workspaceId: bob.id, host: 'links.example.org' },
        ]);
        assert.equal((await store.findWorkspaceById(ada.id))?.defaultDomain, 'go.acme.com');
        assert.equal(await store.removeDomain(acme.id), 'removed');
        assert.deepEqual(await sorted(), [{ workspaceId: bob.id, host: 'links.example.org' }]);
        assert.equal((await store.findWorkspaceById(ada.id))?.defaultDomain, null);
        await store.setDefaultDomain(bob.id, null);
        assert.deepEqual(await store.listDefaultDomains(), []);
        assert.equal((await store.findWorkspaceById(bob.id))?.defaultDomain, null);
      });

      it('counts the live links on each domain, of one workspace or of all', async () => {
        const ada = await workspace('ada@example.com');
        const bob = await workspace('bob@example.com');
        const carol = await workspace('carol@example.com');
        const shared = await added('links.example.org');
        await created(ada.id, 'https://example.com/1', 0);
        await created(ada.id, 'https://example.com/2', 0);
        await created(ada.id, 'https://example.com/3', shared.id);
        await created(bob.id, 'https://example.com/1', shared.id);
        const gone = await created(bob.id, 'https://example.com/2', shared.id);
        assert.equal(await store.deleteLink(bob.id, shared.id, gone.code), true);
        const counts = async (workspaceId: number | null) =>
          [...(await store.countLinksPerDomain(workspaceId))].sort(([x], [y]) => x - y);
        assert.deepEqual(await counts(ada.id), [
          [0, 2],
          [shared.id, 1],
        ]);
        assert.deepEqual(await counts(bob.id), [[shared.id, 1]]);
        assert.deepEqual(await counts(carol.id), []);
        assert.deepEqual(await counts(null), [
          [0, 2],
          [shared.id, 2],
        ]);
      });
    });

    runCodeSpaceCases(() => ({ store, workspace, added, created }));
  });
}

interface Fixture {
  store: Store;
  workspace: (email: string) => Promise<Workspace>;
  added: (host: string, options?: AddOptions) => Promise<Domain>;
  created: (workspaceId: number, url: string, domainId: number, code?: string) => Promise<Link>;
}

/** Each domain's own code space and duplicate rule. */
function runCodeSpaceCases(fixture: () => Fixture): void {
  describe('the code space of each domain', () => {
    it('holds one code on two domains, each with its own target, each addressed by its domain', async () => {
      const { store, workspace, added, created } = fixture();
      const ada = await workspace('ada@example.com');
      const acme = await added('go.acme.com', { workspaceId: ada.id });
      const other = await added('links.example.org');
      const onDefault = await created(ada.id, 'https://example.com/default', 0, 'promo01');
      const onAcme = await created(ada.id, 'https://example.com/acme', acme.id, 'promo01');
      assert.notEqual(onDefault.id, onAcme.id);
      assert.deepEqual([onDefault.domainId, onAcme.domainId], [0, acme.id]);
      assert.deepEqual(await store.findLinkByCode(0, 'promo01'), onDefault);
      assert.deepEqual(await store.findLinkByCode(acme.id, 'promo01'), onAcme);
      assert.equal(await store.findLinkByCode(other.id, 'promo01'), undefined);
      if (store.findLinkByCodeNow) {
        // What the redirect reads of each, no more (RedirectLink).
        assert.deepEqual(store.findLinkByCodeNow(acme.id, 'promo01'), redirectFieldsOf(onAcme));
        assert.deepEqual(store.findLinkByCodeNow(0, 'promo01'), redirectFieldsOf(onDefault));
      }
      assert.deepEqual(await store.findLinkOfWorkspace(ada.id, acme.id, 'promo01'), onAcme);
      const retitled = await store.updateLink(ada.id, acme.id, 'promo01', { title: 'Acme' });
      assert.equal(retitled.kind, 'updated');
      assert.equal((await store.findLinkByCode(acme.id, 'promo01'))?.title, 'Acme');
      assert.equal((await store.findLinkByCode(0, 'promo01'))?.title, '', 'the other domain keeps its own');
      assert.equal(await store.deleteLink(ada.id, acme.id, 'promo01'), true);
      assert.equal(await store.findLinkByCode(acme.id, 'promo01'), undefined);
      assert.deepEqual(await store.findLinkByCode(0, 'promo01'), onDefault);
    });

    it('never issues a code twice on one domain, deleted links included', async () => {
      const { store, workspace, added, created } = fixture();
      const ada = await workspace('ada@example.com');
      const acme = await added('go.acme.com', { workspaceId: ada.id });
      const other = await added('links.example.org');
      const link = await created(ada.id, 'https://example.com/a', acme.id, 'taken01');
      const again = (url: string) =>
        store.insertLinkWithinQuota(newLink(ada.id, url, { domainId: acme.id, code: 'taken01' }));
      assert.deepEqual(await again('https://example.com/b'), { kind: 'code-taken' });
      assert.equal(await store.isCodeIssued(acme.id, 'taken01'), true);
      assert.equal(await store.isCodeIssued(0, 'taken01'), false);
      assert.equal(await store.isCodeIssued(other.id, 'taken01'), false);
      assert.equal(await store.deleteLink(ada.id, acme.id, link.code), true);
      assert.equal(await store.isCodeIssued(acme.id, 'taken01'), true);
      assert.deepEqual(await again('https://example.com/c'), { kind: 'code-taken' });
      await created(ada.id, 'https://example.com/c', other.id, 'taken01');
      // A removed domain taken back keeps its codes issued.
      assert.equal(await store.removeDomain(acme.id), 'removed');
      assert.equal((await added('go.acme.com', { workspaceId: ada.id })).id, acme.id);
      assert.equal(await store.isCodeIssued(acme.id, 'taken01'), true);
    });

    it('applies the duplicate rule per domain', async () => {
      const { store, workspace, added, created } = fixture();
      const ada = await workspace('ada@example.com');
      const acme = await added('go.acme.com', { workspaceId: ada.id });
      const url = 'https://example.com/same';
      const onDefault = await created(ada.id, url, 0);
      const onAcme = await created(ada.id, url, acme.id);
      const twice = await store.insertLinkWithinQuota(newLink(ada.id, url, { domainId: acme.id }));
      assert.deepEqual(twice, { kind: 'duplicate', existing: onAcme });
      const hash = newLink(ada.id, url).urlHash;
      assert.deepEqual(await store.findLiveLinkByUrlHash(ada.id, 0, hash), onDefault);
      assert.deepEqual(await store.findLiveLinkByUrlHash(ada.id, acme.id, hash), onAcme);
      assert.equal(await store.deleteLink(ada.id, acme.id, onAcme.code), true);
      assert.equal(await store.findLiveLinkByUrlHash(ada.id, acme.id, hash), undefined);
      await created(ada.id, url, acme.id);
    });

    it('lists the links of one domain', async () => {
      const { store, workspace, added, created } = fixture();
      const ada = await workspace('ada@example.com');
      const acme = await added('go.acme.com', { workspaceId: ada.id });
      const a = await created(ada.id, 'https://example.com/1', 0);
      const b = await created(ada.id, 'https://example.com/2', acme.id);
      const c = await created(ada.id, 'https://example.com/3', acme.id);
      const codes = async (domainId?: number) =>
        (await store.listLinks(ada.id, { limit: 10, ...(domainId === undefined ? {} : { domainId }) })).links
          .map((link) => link.code)
          .sort();
      assert.deepEqual(await codes(acme.id), [b.code, c.code].sort());
      assert.deepEqual(await codes(0), [a.code]);
      assert.deepEqual(await codes(), [a.code, b.code, c.code].sort());
    });
  });
}
