/**
 * The webhook part of the store contract (docs/api.md §14): endpoints, the outbox a link's change
 * writes its event to in the change's own transaction (clicks with their flush), and the
 * deliveries any instance claims, finishes, resends and purges. Written against the ports (and
 * plain SQL only to count stored events, which no port shows), so the same cases run on SQLite and
 * PostgreSQL. `open` must resolve to a migrated, empty store.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { loadMigrations } from '../../../src/adapters/sql/migrations.ts';
import type { Link, NewLink, Plan, Workspace } from '../../../src/core/entities.ts';
import type { Store } from '../../../src/core/ports/store.ts';
import type {
  ClaimedDelivery,
  DeliveryOutcome,
  DisablePolicy,
  LinkEventSink,
  WebhookEndpoint,
} from '../../../src/core/ports/webhook-store.ts';
import {
  type EventType,
  type LinkChangeType,
  type NewEvent,
  newEvent,
  newSigningSecret,
  TEST_EVENT_TYPE,
} from '../../../src/core/webhook-events.ts';
import {
  linkRows,
  type OldDatabase,
  oldClicks,
  oldPlan,
  type Param,
  type Row,
} from '../../fixtures/old-database.ts';
import { newLink, nextCode, planInput } from './store-contract.ts';

/** A migrated, empty store, further stores on its database, and plain SQL on it. */
export interface WebhookHarness {
  store: Store;
  /** Another store on the same database, migrated, as another instance would open it; `close` closes it. */
  another(): Promise<Store>;
  /** One statement with `?` placeholders; int8 values come back as numbers. */
  sql(text: string, ...params: Param[]): Promise<Row[]>;
  close(): Promise<void>;
}

export interface WebhookContractOptions {
  /** How many stores claim the same deliveries at once in the race. */
  claimers: number;
}

interface Context {
  harness: WebhookHarness;
  store: Store;
  plan: Plan;
}

/** A minute: the lease of claims in these cases, longer than any case runs. */
const LEASE = 60_000;
/** A policy no case reaches: failures are recorded, nothing is disabled. */
const NEVER: DisablePolicy = { failingForMs: 365 * 86_400_000, failuresInRow: 1_000_000 };

async function givenWorkspace(ctx: Context, email: string, plan = ctx.plan): Promise<Workspace> {
  const result = await ctx.store.createAccount(email, plan.id, null);
  assert.equal(result.kind, 'created', email);
  if (result.kind !== 'created') throw new Error(`no account for ${email}`);
  return result.account.workspace;
}

function givenEndpoint(
  ctx: Context,
  workspaceId: number,
  events: readonly EventType[],
  url = 'https://hooks.example/in',
): Promise<WebhookEndpoint> {
  return ctx.store.createEndpoint({
    workspaceId,
    url,
    events,
    description: 'receiver',
    secret: newSigningSecret(),
  });
}

async function givenLink(
  ctx: Context,
  workspaceId: number,
  url: string,
  overrides: Partial<NewLink> = {},
  sink?: LinkEventSink,
): Promise<Link> {
  const result = await ctx.store.insertLinkWithinQuota(newLink(workspaceId, url, overrides), sink);
  assert.equal(result.kind, 'created', url);
  if (result.kind !== 'created') throw new Error(`no link to ${url}`);
  return result.link;
}

/** A sink as the link services make one, counting what it was asked to render. */
function sinkOf(stream = false): { sink: LinkEventSink; asked: LinkChangeType[] } {
  const asked: LinkChangeType[] = [];
  const sink: LinkEventSink = {
    stream,
    render: (type, view) => {
      asked.push(type);
      return newEvent(view.link.workspaceId, type, {
        code: view.link.code,
        tags: view.tags,
        group: view.group?.name ?? null,
      });
    },
  };
  return { sink, asked };
}

/** Click events of one workspace, `at` apart by a millisecond each. */
function clickEvents(workspaceId: number, count: number, at = Date.now()): NewEvent[] {
  return Array.from({ length: count }, (_, i) =>
    newEvent(workspaceId, 'link.clicked', { code: `c${i}` }, at + i),
  );
}

/** A flush carrying only click notices. */
function addNotices(store: Store, events: readonly NewEvent[], stream = false): Promise<void> {
  return store.addClicks([], { events: [], visitors: [], bots: [], notices: { events, stream } });
}

/** Everything due a minute from now, leased for a minute. */
const claimAll = (ctx: Context) => ctx.store.claimDeliveries(Date.now() + LEASE, 10_000, LEASE);

const storedEvents = async (ctx: Context) =>
  Number((await ctx.harness.sql('SELECT COUNT(*) AS n FROM webhook_events'))[0]?.n);

const bodyOf = (delivery: ClaimedDelivery | undefined) =>
  JSON.parse(delivery?.body ?? 'null') as { type: string; timestamp: string; data: Record<string, unknown> };

const outcome = (
  delivery: { id: number; endpointId: number | null; attempts?: number },
  fields: Partial<DeliveryOutcome>,
): DeliveryOutcome => ({
  id: delivery.id,
  attempt: delivery.attempts ?? 1,
  endpointId: delivery.endpointId,
  ok: false,
  statusCode: 500,
  durationMs: 7,
  error: 'status 500',
  retryAt: null,
  ...fields,
});

/** Lets the clock move on, so a time written twice would differ. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

export function runWebhookContract(
  name: string,
  open: () => Promise<WebhookHarness>,
  options: WebhookContractOptions,
): void {
  describe(`${name} webhook contract`, () => {
    const ctx = {} as Context;
    beforeEach(async () => {
      ctx.harness = await open();
      ctx.store = ctx.harness.store;
      ctx.plan = await ctx.store.upsertPlan(planInput({ urlQuota: 1000 }));
    });
    afterEach(async () => {
      await ctx.harness.close();
    });

    endpointCases(ctx);
    linkEventCases(ctx);
    clickNoticeCases(ctx);
    claimCases(ctx);
    claimRaceCases(ctx, options.claimers);
    finishCases(ctx);
    resendCases(ctx);
    deliveryListCases(ctx);
  });
}

function endpointCases(ctx: Context): void {
  describe('endpoints', () => {
    it('creates, lists and finds endpoints of a workspace only', async () => {
      const ada = await givenWorkspace(ctx, 'ada@example.com');
      const bob = await givenWorkspace(ctx, 'bob@example.com');
      const before = Date.now();
      const first = await givenEndpoint(ctx, ada.id, ['link.created', 'link.clicked']);
      assert.ok(first.id > 0);
      assert.ok(first.secret.startsWith('whsec_'));
      assert.ok(first.createdAt.getTime() >= before - 1000 && first.createdAt.getTime() <= Date.now());
      assert.deepEqual(
        { ...first, id: 0, secret: '', createdAt: null, updatedAt: null },
        {
          id: 0,
          workspaceId: ada.id,
          url: 'https://hooks.example/in',
          events: ['link.created', 'link.clicked'],
          description: 'receiver',
          secret: '',
          enabled: true,
          disabled: null,
          failingSince: null,
          failures: 0,
          createdAt: null,
          updatedAt: null,
        },
      );
      const second = await givenEndpoint(ctx, ada.id, ['link.deleted'], 'https://other.example/');
      const bobs = await givenEndpoint(ctx, bob.id, ['link.created']);
      assert.deepEqual(await ctx.store.listEndpoints(ada.id), [first, second]);
      assert.deepEqual(await ctx.store.listEndpoints(bob.id), [bobs]);
      assert.deepEqual(await ctx.store.findEndpoint(ada.id, first.id), first);
      assert.equal(await ctx.store.findEndpoint(bob.id, first.id), undefined);
      assert.equal(await ctx.store.findEndpoint(ada.id, bobs.id), undefined);
      assert.equal(await ctx.store.findEndpoint(ada.id, first.id + 1000), undefined);
    });

    it('changes the events, description, url and secret, and keeps what is not given', async () => {
      const ada = await givenWorkspace(ctx, 'ada@example.com');
      const endpoint = await givenEndpoint(ctx, ada.id, ['link.created']);
      const events: EventType[] = ['link.deleted', 'link.clicked'];
      const changed = await ctx.store.updateEndpoint(ada.id, endpoint.id, { events, description: 'new' });
      assert.deepEqual(
        [changed?.events, changed?.description, changed?.url, changed?.secret],
        [events, 'new', endpoint.url, endpoint.secret],
      );
      const secret = newSigningSecret();
      const moved = await ctx.store.updateEndpoint(ada.id, endpoint.id, {
        url: 'https://new.example/',
        secret,
      });
      assert.deepEqual(
        [moved?.url, moved?.secret, moved?.events, moved?.description, moved?.enabled],
        ['https://new.example/', secret, events, 'new', true],
      );
      assert.deepEqual(await ctx.store.findEndpoint(ada.id, endpoint.id), moved);
    });

    it('disables an endpoint by hand, cancelling its deliveries; enabling starts its failures afresh', async () => {
      const ada = await givenWorkspace(ctx, 'ada@example.com');
      const endpoint = await givenEndpoint(ctx, ada.id, ['link.created']);
      await ctx.store.sendTo(endpoint.id, newEvent(ada.id, TEST_EVENT_TYPE, {}));
      const [claimed] = await claimAll(ctx);
      assert.ok(claimed);
      await ctx.store.finishDeliveries(
        [outcome(claimed, { retryAt: Date.now() + LEASE })],
        Date.now(),
        NEVER,
      );
      const failing = await ctx.store.findEndpoint(ada.id, endpoint.id);
      assert.equal(failing?.failures, 1);
      assert.ok(failing?.failingSince instanceof Date);

      const off = await ctx.store.updateEndpoint(ada.id, endpoint.id, { enabled: false });
      assert.equal(off?.enabled, false);
      assert.equal(off?.disabled?.reason, 'manual');
      assert.ok(off?.disabled?.at instanceof Date);
      assert.deepEqual(await ctx.store.findEndpoint(ada.id, endpoint.id), off);
      const [delivery] = await ctx.store.listDeliveries(endpoint.id, 0, 10);
      assert.equal(delivery?.state, 'cancelled');
      assert.equal(await ctx.store.pendingDeliveries(), 0);

      const on = await ctx.store.updateEndpoint(ada.id, endpoint.id, { enabled: true });
      assert.deepEqual([on?.enabled, on?.disabled, on?.failures, on?.failingSince], [true, null, 0, null]);
      assert.deepEqual(await ctx.store.findEndpoint(ada.id, endpoint.id), on);
    });

    it('deletes an endpoint and its deliveries', async () => {
      const ada = await givenWorkspace(ctx, 'ada@example.com');
      const endpoint = await givenEndpoint(ctx, ada.id, ['link.created']);
      const kept = await givenEndpoint(ctx, ada.id, ['link.created']);
      await ctx.store.sendTo(endpoint.id, newEvent(ada.id, TEST_EVENT_TYPE, {}));
      await ctx.store.sendTo(kept.id, newEvent(ada.id, TEST_EVENT_TYPE, {}));
      assert.equal(await ctx.store.deleteEndpoint(ada.id, endpoint.id), true);
      assert.equal(await ctx.store.findEndpoint(ada.id, endpoint.id), undefined);
      assert.deepEqual(await ctx.store.listEndpoints(ada.id), [kept]);
      assert.deepEqual(await ctx.store.listDeliveries(endpoint.id, 0, 10), []);
      assert.equal(await ctx.store.pendingDeliveries(), 1);
      assert.deepEqual(
        (await claimAll(ctx)).map((delivery) => delivery.endpointId),
        [kept.id],
      );
      assert.equal(await ctx.store.deleteEndpoint(ada.id, endpoint.id), false);
    });

    it("refuses another workspace's endpoint: not found, not changed, not deleted", async () => {
      const ada = await givenWorkspace(ctx, 'ada@example.com');
      const bob = await givenWorkspace(ctx, 'bob@example.com');
      const endpoint = await givenEndpoint(ctx, ada.id, ['link.created']);
      assert.equal(await ctx.store.findEndpoint(bob.id, endpoint.id), undefined);
      assert.equal(
        await ctx.store.updateEndpoint(bob.id, endpoint.id, { url: 'https://bob.example/', enabled: false }),
        undefined,
      );
      assert.equal(await ctx.store.deleteEndpoint(bob.id, endpoint.id), false);
      assert.deepEqual(await ctx.store.findEndpoint(ada.id, endpoint.id), endpoint);
      assert.deepEqual(await ctx.store.listEndpoints(bob.id), []);
    });

    it('raises the webhook version on every change of an endpoint, and on no refused one', async () => {
      const ada = await givenWorkspace(ctx, 'ada@example.com');
      const bob = await givenWorkspace(ctx, 'bob@example.com');
      assert.equal(await ctx.store.webhookVersion(), 0);
      let endpoint: WebhookEndpoint | undefined;
      const steps: Array<() => Promise<unknown>> = [
        async () => {
          endpoint = await givenEndpoint(ctx, ada.id, ['link.created']);
        },
        () => ctx.store.updateEndpoint(ada.id, endpoint?.id ?? 0, { description: 'x' }),
        () => ctx.store.updateEndpoint(ada.id, endpoint?.id ?? 0, { events: ['link.clicked'] }),
        () => ctx.store.updateEndpoint(ada.id, endpoint?.id ?? 0, { enabled: false }),
        () => ctx.store.updateEndpoint(ada.id, endpoint?.id ?? 0, { enabled: true }),
        () => ctx.store.deleteEndpoint(ada.id, endpoint?.id ?? 0),
      ];
      let last = 0;
      for (const [index, step] of steps.entries()) {
        await step();
        const version = await ctx.store.webhookVersion();
        assert.ok(version > last, `step ${index} raised it`);
        last = version;
        if (index === 0) {
          await ctx.store.updateEndpoint(bob.id, endpoint?.id ?? 0, { description: 'y' });
          await ctx.store.deleteEndpoint(bob.id, endpoint?.id ?? 0);
          assert.equal(await ctx.store.webhookVersion(), last, 'refused changes raise nothing');
        }
      }
    });

    it('lists the workspaces with an enabled endpoint hearing link.clicked, and only those', async () => {
      const [ada, bob, carol, dan] = await Promise.all(
        ['ada', 'bob', 'carol', 'dan'].map((who) => givenWorkspace(ctx, `${who}@example.com`)),
      );
      assert.ok(ada && bob && carol && dan);
      assert.deepEqual(await ctx.store.clickSubscribers(), []);
      await givenEndpoint(ctx, ada.id, ['link.created', 'link.clicked']);
      await givenEndpoint(ctx, ada.id, ['link.clicked']);
      await givenEndpoint(ctx, bob.id, ['link.created', 'link.updated', 'link.deleted', 'link.disabled']);
      const carols = await givenEndpoint(ctx, carol.id, ['link.clicked']);
      await ctx.store.updateEndpoint(carol.id, carols.id, { enabled: false });
      const dans = await givenEndpoint(ctx, dan.id, ['link.created']);
      assert.deepEqual(await ctx.store.clickSubscribers(), [ada.id]);
      await ctx.store.updateEndpoint(dan.id, dans.id, { events: ['link.clicked'] });
      await ctx.store.updateEndpoint(carol.id, carols.id, { enabled: true });
      const sorted = (await ctx.store.clickSubscribers()).toSorted((a, b) => a - b);
      assert.deepEqual(
        sorted,
        [ada.id, carol.id, dan.id].toSorted((a, b) => a - b),
      );
    });
  });
}

function linkEventCases(ctx: Context): void {
  describe('link events in the change', () => {
    it('writes link.created with the insert: one pending delivery with the endpoint and the link', async () => {
      const ada = await givenWorkspace(ctx, 'ada@example.com');
      const endpoint = await givenEndpoint(ctx, ada.id, ['link.created']);
      await givenEndpoint(ctx, ada.id, ['link.deleted'], 'https://deaf.example/');
      const group = await ctx.store.createGroup(ada.id, 'Work', 'work');
      assert.equal(group.kind, 'created');
      const groupId = group.kind === 'created' ? group.group.id : null;
      const { sink, asked } = sinkOf();
      const link = await givenLink(
        ctx,
        ada.id,
        'https://example.com/a',
        { tags: ['alpha', 'beta'], groupId },
        sink,
      );
      assert.deepEqual(asked, ['link.created']);
      assert.equal(await ctx.store.pendingDeliveries(), 1);
      const claimed = await claimAll(ctx);
      assert.equal(claimed.length, 1);
      const [delivery] = claimed;
      assert.deepEqual(
        [delivery?.type, delivery?.endpointId, delivery?.url, delivery?.secret, delivery?.attempts],
        ['link.created', endpoint.id, endpoint.url, endpoint.secret, 1],
      );
      assert.match(delivery?.messageId ?? '', /^msg_/);
      const body = bodyOf(delivery);
      assert.equal(body.type, 'link.created');
      assert.deepEqual(body.data, { code: link.code, tags: ['alpha', 'beta'], group: 'Work' });
    });

    it('writes no event for a refused insert: a duplicate or one past the quota', async () => {
      const tiny = await ctx.store.upsertPlan(planInput({ name: 'tiny', urlQuota: 1 }));
      const ada = await givenWorkspace(ctx, 'ada@example.com', tiny);
      await givenEndpoint(ctx, ada.id, ['link.created']);
      const { sink, asked } = sinkOf();
      await givenLink(ctx, ada.id, 'https://example.com/a', {}, sink);
      const duplicate = await ctx.store.insertLinkWithinQuota(newLink(ada.id, 'https://example.com/a'), sink);
      assert.equal(duplicate.kind, 'duplicate');
      const full = await ctx.store.insertLinkWithinQuota(newLink(ada.id, 'https://example.com/b'), sink);
      assert.equal(full.kind, 'quota-exceeded');
      assert.deepEqual(asked, ['link.created']);
      assert.equal(await ctx.store.pendingDeliveries(), 1);
      assert.equal(await storedEvents(ctx), 1);
    });

    it('writes nothing, and renders nothing, when no endpoint hears the type and the stream is off', async () => {
      const ada = await givenWorkspace(ctx, 'ada@example.com');
      const bob = await givenWorkspace(ctx, 'bob@example.com');
      await givenEndpoint(ctx, ada.id, ['link.deleted', 'link.clicked']);
      await givenEndpoint(ctx, bob.id, ['link.created']);
      const off = await givenEndpoint(ctx, ada.id, ['link.created']);
      await ctx.store.updateEndpoint(ada.id, off.id, { enabled: false });
      const { sink, asked } = sinkOf();
      await givenLink(ctx, ada.id, 'https://example.com/a', {}, sink);
      assert.deepEqual(asked, []);
      assert.equal(await ctx.store.pendingDeliveries(), 0);
      assert.equal(await storedEvents(ctx), 0);
    });

    it('writes a stream delivery with the stream on, with or without endpoints', async () => {
      const ada = await givenWorkspace(ctx, 'ada@example.com');
      const { sink, asked } = sinkOf(true);
      const link = await givenLink(ctx, ada.id, 'https://example.com/a', {}, sink);
      assert.deepEqual(asked, ['link.created']);
      const [delivery, ...rest] = await claimAll(ctx);
      assert.deepEqual(rest, []);
      assert.deepEqual(
        [delivery?.type, delivery?.endpointId, delivery?.url, delivery?.secret],
        ['link.created', null, null, null],
      );
      assert.equal(bodyOf(delivery).data.code, link.code);
      const endpoint = await givenEndpoint(ctx, ada.id, ['link.created']);
      await givenLink(ctx, ada.id, 'https://example.com/b', {}, sink);
      const both = await claimAll(ctx);
      assert.deepEqual(both.map((one) => one.endpointId).toSorted(), [endpoint.id, null].toSorted());
      assert.equal(both[0]?.messageId, both[1]?.messageId, 'one event, two deliveries');
    });

    it('writes link.updated with a change, and none for a change refused as a duplicate', async () => {
      const ada = await givenWorkspace(ctx, 'ada@example.com');
      const endpoint = await givenEndpoint(ctx, ada.id, ['link.updated']);
      const a = await givenLink(ctx, ada.id, 'https://example.com/a');
      const b = await givenLink(ctx, ada.id, 'https://example.com/b', { tags: ['x'] });
      const { sink, asked } = sinkOf();
      const updated = await ctx.store.updateLink(ada.id, 0, b.code, { title: 'Bee' }, sink);
      assert.equal(updated.kind, 'updated');
      const target = newLink(ada.id, a.normalizedUrl);
      const refused = await ctx.store.updateLink(
        ada.id,
        0,
        b.code,
        { target: { longUrl: target.longUrl, normalizedUrl: target.normalizedUrl, urlHash: target.urlHash } },
        sink,
      );
      assert.equal(refused.kind, 'duplicate');
      assert.deepEqual(asked, ['link.updated']);
      const deliveries = await ctx.store.listDeliveries(endpoint.id, 0, 10);
      assert.deepEqual(
        deliveries.map((delivery) => [delivery.type, delivery.state]),
        [['link.updated', 'pending']],
      );
      assert.deepEqual(bodyOf(await claimAll(ctx).then((all) => all[0])).data, {
        code: b.code,
        tags: ['x'],
        group: null,
      });
    });

    it("writes link.deleted with the deleted link's data", async () => {
      const ada = await givenWorkspace(ctx, 'ada@example.com');
      await givenEndpoint(ctx, ada.id, ['link.deleted']);
      const link = await givenLink(ctx, ada.id, 'https://example.com/a', { tags: ['keep'] });
      const { sink, asked } = sinkOf();
      assert.equal(await ctx.store.deleteLink(ada.id, 0, link.code, sink), true);
      assert.equal(await ctx.store.deleteLink(ada.id, 0, link.code, sink), false);
      assert.deepEqual(asked, ['link.deleted']);
      const [delivery, ...rest] = await claimAll(ctx);
      assert.deepEqual(rest, []);
      assert.equal(delivery?.type, 'link.deleted');
      assert.deepEqual(bodyOf(delivery).data, { code: link.code, tags: ['keep'], group: null });
    });

    it('writes link.disabled once: not again for a disabled link, not on enabling', async () => {
      const ada = await givenWorkspace(ctx, 'ada@example.com');
      const endpoint = await givenEndpoint(ctx, ada.id, ['link.disabled']);
      const link = await givenLink(ctx, ada.id, 'https://example.com/a');
      const { sink, asked } = sinkOf();
      assert.equal(
        (await ctx.store.setLinkDisabled(link.id, 'phishing', sink))?.disabled?.reason,
        'phishing',
      );
      await tick();
      await ctx.store.setLinkDisabled(link.id, 'spam', sink);
      await ctx.store.setLinkDisabled(link.id, null, sink);
      assert.deepEqual(asked, ['link.disabled']);
      const deliveries = await ctx.store.listDeliveries(endpoint.id, 0, 10);
      assert.deepEqual(
        deliveries.map((delivery) => delivery.type),
        ['link.disabled'],
      );
      assert.equal(bodyOf((await claimAll(ctx))[0]).data.code, link.code);
    });

    it('writes link.disabled once for a link disabled twice within one millisecond', async (t) => {
      const ada = await givenWorkspace(ctx, 'ada@example.com');
      const endpoint = await givenEndpoint(ctx, ada.id, ['link.disabled']);
      const link = await givenLink(ctx, ada.id, 'https://example.com/a');
      const { sink, asked } = sinkOf();
      // The clock held still: two operators (or a report resolved and the CLI) acting at once.
      t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
      try {
        await ctx.store.setLinkDisabled(link.id, 'phishing', sink);
        await ctx.store.setLinkDisabled(link.id, 'spam', sink);
      } finally {
        t.mock.timers.reset();
      }
      assert.equal((await ctx.store.findLinkById(link.id))?.disabled?.reason, 'phishing');
      assert.deepEqual(asked, ['link.disabled']);
      assert.equal((await ctx.store.listDeliveries(endpoint.id, 0, 10)).length, 1);
    });
  });
}

function clickNoticeCases(ctx: Context): void {
  describe('click notices with the flush', () => {
    it("delivers a workspace's clicks to its link.clicked endpoints; keeps others' events undelivered", async () => {
      const ada = await givenWorkspace(ctx, 'ada@example.com');
      const bob = await givenWorkspace(ctx, 'bob@example.com');
      const endpoint = await givenEndpoint(ctx, ada.id, ['link.clicked']);
      await givenEndpoint(ctx, bob.id, ['link.created']);
      const adas = clickEvents(ada.id, 3);
      await addNotices(ctx.store, [...adas, ...clickEvents(bob.id, 2)]);
      assert.equal(await storedEvents(ctx), 5);
      assert.equal(await ctx.store.pendingDeliveries(), 3);
      const claimed = await claimAll(ctx);
      assert.deepEqual(
        claimed.map((delivery) => delivery.messageId).toSorted(),
        adas.map((event) => event.id).toSorted(),
      );
      assert.ok(claimed.every((delivery) => delivery.endpointId === endpoint.id));
      const first = claimed.find((delivery) => delivery.messageId === adas[0]?.id);
      assert.deepEqual([first?.body, first?.createdAt], [adas[0]?.body, adas[0]?.at]);
    });

    it('delivers every event of a flush larger than one statement holds', async () => {
      const ada = await givenWorkspace(ctx, 'ada@example.com');
      const endpoint = await givenEndpoint(ctx, ada.id, ['link.clicked']);
      const events = clickEvents(ada.id, 250);
      await addNotices(ctx.store, events);
      assert.equal(await ctx.store.pendingDeliveries(), 250);
      const listed = await ctx.store.listDeliveries(endpoint.id, 0, 1000);
      assert.deepEqual(
        listed.map((delivery) => delivery.messageId).toSorted(),
        events.map((event) => event.id).toSorted(),
      );
    });

    it('adds a stream delivery for each click with the stream on', async () => {
      const ada = await givenWorkspace(ctx, 'ada@example.com');
      await addNotices(ctx.store, clickEvents(ada.id, 3), true);
      const claimed = await claimAll(ctx);
      assert.equal(claimed.length, 3);
      assert.ok(
        claimed.every((delivery) => delivery.endpointId === null && delivery.type === 'link.clicked'),
      );
    });
  });
}

function claimCases(ctx: Context): void {
  describe('claiming', () => {
    it('claims due deliveries once per lease, again after it with the same webhook-id, never early', async () => {
      const ada = await givenWorkspace(ctx, 'ada@example.com');
      const endpoint = await givenEndpoint(ctx, ada.id, ['link.clicked']);
      const t0 = Date.now();
      const due = [
        newEvent(ada.id, TEST_EVENT_TYPE, { n: 1 }, t0),
        newEvent(ada.id, TEST_EVENT_TYPE, { n: 2 }, t0),
      ];
      for (const event of due) await ctx.store.sendTo(endpoint.id, event);
      await ctx.store.sendTo(endpoint.id, newEvent(ada.id, TEST_EVENT_TYPE, { n: 3 }, t0 + 10 * LEASE));
      const lease = 1000;
      const now = t0 + 1;
      const first = await ctx.store.claimDeliveries(now, 10, lease);
      const ids = (claimed: ClaimedDelivery[]) => claimed.map((delivery) => delivery.messageId).toSorted();
      assert.deepEqual(ids(first), due.map((event) => event.id).toSorted());
      for (const delivery of first) {
        assert.deepEqual(
          [delivery.attempts, delivery.endpointId, delivery.url, delivery.secret, delivery.createdAt],
          [1, endpoint.id, endpoint.url, endpoint.secret, t0],
        );
        assert.equal(delivery.body, due.find((event) => event.id === delivery.messageId)?.body);
      }
      assert.deepEqual(await ctx.store.claimDeliveries(now, 10, lease), []);
      assert.deepEqual(await ctx.store.claimDeliveries(now + lease - 1, 10, lease), []);
      const again = await ctx.store.claimDeliveries(now + lease + 1, 10, lease);
      assert.deepEqual(ids(again), ids(first));
      assert.deepEqual(
        again.map((delivery) => delivery.attempts),
        [2, 2],
      );
      assert.deepEqual(
        again.map((delivery) => delivery.id).toSorted(),
        first.map((delivery) => delivery.id).toSorted(),
      );
      assert.equal(await ctx.store.pendingDeliveries(), 3, 'claimed ones are still pending');
      // The first claim's outcomes come too late: the deliveries were claimed again since.
      const late = first.map((delivery) => outcome(delivery, { ok: true, statusCode: 204, error: null }));
      await ctx.store.finishDeliveries(late, now + lease + 2, NEVER);
      assert.equal(await ctx.store.pendingDeliveries(), 3, 'a stale claim records nothing');
      const current = again.map((delivery) => outcome(delivery, { ok: true, statusCode: 204, error: null }));
      await ctx.store.finishDeliveries(current, now + lease + 3, NEVER);
      assert.equal(await ctx.store.pendingDeliveries(), 1);
    });

    it('renews only the claims still held, and tells when the soonest waiting delivery is due', async () => {
      const ada = await givenWorkspace(ctx, 'ada@example.com');
      const endpoint = await givenEndpoint(ctx, ada.id, ['link.clicked']);
      assert.equal(await ctx.store.nextDeliveryAt(), null, 'nothing waits');
      const t0 = Date.now();
      for (const n of [1, 2])
        await ctx.store.sendTo(endpoint.id, newEvent(ada.id, TEST_EVENT_TYPE, { n }, t0));
      assert.equal(await ctx.store.nextDeliveryAt(), t0);
      const [held, stale] = (await ctx.store.claimDeliveries(t0, 10, 1000)) as [
        ClaimedDelivery,
        ClaimedDelivery,
      ];
      assert.equal(await ctx.store.nextDeliveryAt(), t0 + 1000, "the soonest lease's end");
      // The second was claimed again once its lease ran out: its first claim is no longer held.
      await ctx.store.renewDeliveries([{ id: held.id, attempt: held.attempts }], t0 + 5000);
      assert.equal((await ctx.store.claimDeliveries(t0 + 1001, 10, 1000)).length, 1);
      const renewed = await ctx.store.renewDeliveries(
        [held, stale].map((delivery) => ({ id: delivery.id, attempt: delivery.attempts })),
        t0 + 9000,
      );
      assert.equal(renewed, 1, 'the stale claim is not renewed');
      assert.deepEqual(await ctx.store.claimDeliveries(t0 + 2000, 10, 1000), [], 'both are held');
      assert.equal(await ctx.store.nextDeliveryAt(), t0 + 2001);
    });

    it('claims no more than the limit, the rest on the next claim', async () => {
      const ada = await givenWorkspace(ctx, 'ada@example.com');
      await givenEndpoint(ctx, ada.id, ['link.clicked']);
      await addNotices(ctx.store, clickEvents(ada.id, 5));
      const now = Date.now() + LEASE;
      const first = await ctx.store.claimDeliveries(now, 3, LEASE);
      const second = await ctx.store.claimDeliveries(now, 3, LEASE);
      assert.deepEqual([first.length, second.length], [3, 2]);
      assert.equal(new Set([...first, ...second].map((delivery) => delivery.id)).size, 5);
    });
  });
}

function claimRaceCases(ctx: Context, claimers: number): void {
  describe('claiming from several instances', () => {
    it(`claims each of 1,000 deliveries exactly once, ${claimers} stores claiming at once`, async () => {
      const ada = await givenWorkspace(ctx, 'ada@example.com');
      const endpoint = await givenEndpoint(ctx, ada.id, ['link.clicked']);
      await addNotices(ctx.store, clickEvents(ada.id, 1000));
      const stores = [ctx.store];
      for (let n = 1; n < claimers; n++) stores.push(await ctx.harness.another());
      const now = Date.now() + LEASE;
      /** Claims in small batches until nothing is left to this claimer. */
      const drain = async (store: Store) => {
        const ids: number[] = [];
        for (;;) {
          const claimed = await store.claimDeliveries(now, 20, 10 * LEASE);
          if (claimed.length === 0) return ids;
          ids.push(...claimed.map((delivery) => delivery.id));
        }
      };
      // Two loops per store: each instance's delivery loop overlaps its own, too.
      const claimed = (await Promise.all(stores.flatMap((store) => [drain(store), drain(store)]))).flat();
      const all = (await ctx.store.listDeliveries(endpoint.id, 0, 2000)).map((delivery) => delivery.id);
      assert.equal(all.length, 1000);
      assert.equal(claimed.length, 1000, 'no delivery claimed twice, none missed');
      assert.deepEqual(
        claimed.toSorted((a, b) => a - b),
        all.toSorted((a, b) => a - b),
      );
      const attempts = (await ctx.store.listDeliveries(endpoint.id, 0, 2000)).map((d) => d.attempts);
      assert.ok(attempts.every((n) => n === 1));
      assert.deepEqual(await ctx.store.claimDeliveries(now, 10, LEASE), []);
    });
  });
}

function finishCases(ctx: Context): void {
  describe('finishing deliveries', () => {
    it('records a success, a retry and a give-up, and a success ends the failure streak', async () => {
      const ada = await givenWorkspace(ctx, 'ada@example.com');
      const endpoint = await givenEndpoint(ctx, ada.id, ['link.clicked']);
      await addNotices(ctx.store, clickEvents(ada.id, 3));
      const [ok, retried, failed] = await claimAll(ctx);
      assert.ok(ok && retried && failed);
      const now = Date.now();
      const retryAt = now + 30_000;
      const disabled = await ctx.store.finishDeliveries(
        [outcome(retried, { retryAt }), outcome(failed, { statusCode: null, error: 'timeout' })],
        now,
        NEVER,
      );
      assert.deepEqual(disabled, []);
      const streak = await ctx.store.findEndpoint(ada.id, endpoint.id);
      assert.deepEqual([streak?.failures, streak?.failingSince?.getTime()], [2, now]);
      await ctx.store.finishDeliveries(
        [outcome(ok, { ok: true, statusCode: 204, durationMs: 12, error: null })],
        now + 1,
        NEVER,
      );
      const byId = new Map((await ctx.store.listDeliveries(endpoint.id, 0, 10)).map((d) => [d.id, d]));
      const seen = (id: number) => {
        const d = byId.get(id);
        return [d?.state, d?.statusCode, d?.durationMs, d?.error, d?.attempts, d?.nextAt?.getTime() ?? null];
      };
      assert.deepEqual(seen(ok.id), ['delivered', 204, 12, null, 1, null]);
      assert.deepEqual(seen(retried.id), ['pending', 500, 7, 'status 500', 1, retryAt]);
      assert.deepEqual(seen(failed.id), ['failed', null, 7, 'timeout', 1, null]);
      const healed = await ctx.store.findEndpoint(ada.id, endpoint.id);
      assert.deepEqual([healed?.failures, healed?.failingSince, healed?.enabled], [0, null, true]);
      assert.equal(await ctx.store.pendingDeliveries(), 1);
      assert.deepEqual(await ctx.store.claimDeliveries(retryAt - 1, 10, LEASE), []);
      assert.deepEqual(
        (await ctx.store.claimDeliveries(retryAt, 10, LEASE)).map((d) => [d.id, d.attempts]),
        [[retried.id, 2]],
      );
    });

    it('disables an endpoint after failures in a row, cancelling what it still had to deliver', async () => {
      const ada = await givenWorkspace(ctx, 'ada@example.com');
      const endpoint = await givenEndpoint(ctx, ada.id, ['link.clicked']);
      const other = await givenEndpoint(ctx, ada.id, ['link.clicked'], 'https://other.example/');
      await addNotices(ctx.store, clickEvents(ada.id, 4));
      const claimed = (await claimAll(ctx)).filter((delivery) => delivery.endpointId === endpoint.id);
      assert.equal(claimed.length, 4);
      const policy: DisablePolicy = { failingForMs: 1000, failuresInRow: 3 };
      const t = Date.now();
      const version = await ctx.store.webhookVersion();
      for (const [n, delivery] of claimed.slice(0, 2).entries()) {
        const retry = outcome(delivery, { retryAt: t + LEASE });
        assert.deepEqual(await ctx.store.finishDeliveries([retry], t + n, policy), [], `failure ${n + 1}`);
      }
      assert.equal(await ctx.store.webhookVersion(), version);
      const third = claimed[2];
      assert.ok(third);
      const [off, ...more] = await ctx.store.finishDeliveries(
        [outcome(third, { retryAt: t + LEASE })],
        t + 2,
        policy,
      );
      assert.deepEqual(more, []);
      assert.deepEqual(
        [off?.id, off?.enabled, off?.disabled?.reason, off?.disabled?.at.getTime(), off?.failures],
        [endpoint.id, false, 'failing', t + 2, 3],
      );
      assert.deepEqual(await ctx.store.findEndpoint(ada.id, endpoint.id), off);
      assert.ok((await ctx.store.webhookVersion()) > version);
      const states = (await ctx.store.listDeliveries(endpoint.id, 0, 10)).map((delivery) => delivery.state);
      assert.deepEqual(states, ['cancelled', 'cancelled', 'cancelled', 'cancelled']);
      assert.equal((await ctx.store.findEndpoint(ada.id, other.id))?.enabled, true);
      assert.equal(await ctx.store.pendingDeliveries(), 4, "the other endpoint's stay");
      assert.deepEqual(await ctx.store.clickSubscribers(), [ada.id]);
      const fourth = claimed[3];
      assert.ok(fourth);
      assert.deepEqual(await ctx.store.finishDeliveries([outcome(fourth, {})], t + 3, policy), [], 'once');
    });

    it('counts the failures of one batch for its endpoint', async () => {
      const ada = await givenWorkspace(ctx, 'ada@example.com');
      const endpoint = await givenEndpoint(ctx, ada.id, ['link.clicked']);
      await addNotices(ctx.store, clickEvents(ada.id, 3));
      const claimed = await claimAll(ctx);
      const policy: DisablePolicy = { failingForMs: 1000, failuresInRow: 3 };
      const off = await ctx.store.finishDeliveries(
        claimed.map((delivery) => outcome(delivery, {})),
        Date.now(),
        policy,
      );
      assert.deepEqual(
        off.map((one) => [one.id, one.disabled?.reason]),
        [[endpoint.id, 'failing']],
      );
    });

    it('disables an endpoint failing for the policy time, however few its failures', async () => {
      const ada = await givenWorkspace(ctx, 'ada@example.com');
      const endpoint = await givenEndpoint(ctx, ada.id, ['link.clicked']);
      await addNotices(ctx.store, clickEvents(ada.id, 3));
      const [a, b, c] = await claimAll(ctx);
      assert.ok(a && b && c);
      const policy: DisablePolicy = { failingForMs: 1000, failuresInRow: 1000 };
      const t = Date.now();
      assert.deepEqual(await ctx.store.finishDeliveries([outcome(a, { retryAt: t + LEASE })], t, policy), []);
      assert.deepEqual(
        await ctx.store.finishDeliveries([outcome(b, { retryAt: t + LEASE })], t + 999, policy),
        [],
      );
      const off = await ctx.store.finishDeliveries([outcome(c, { retryAt: t + LEASE })], t + 1000, policy);
      assert.deepEqual(
        off.map((one) => [one.id, one.disabled?.reason, one.failingSince?.getTime()]),
        [[endpoint.id, 'failing', t]],
      );
      assert.equal(await ctx.store.pendingDeliveries(), 0);
    });

    it('never disables anything for failures of the stream', async () => {
      const ada = await givenWorkspace(ctx, 'ada@example.com');
      const endpoint = await givenEndpoint(ctx, ada.id, ['link.created']);
      await givenLink(ctx, ada.id, 'https://example.com/a', {}, sinkOf(true).sink);
      const claimed = await claimAll(ctx);
      const stream = claimed.find((delivery) => delivery.endpointId === null);
      assert.ok(stream && claimed.length === 2);
      const policy: DisablePolicy = { failingForMs: 0, failuresInRow: 1 };
      const t = Date.now();
      for (let n = 0; n < 3; n++) {
        const off = await ctx.store.finishDeliveries(
          [outcome(stream, { retryAt: t + LEASE })],
          t + n,
          policy,
        );
        assert.deepEqual(off, []);
      }
      assert.deepEqual(await ctx.store.finishDeliveries([outcome(stream, {})], t + 3, policy), []);
      const kept = await ctx.store.findEndpoint(ada.id, endpoint.id);
      assert.deepEqual([kept?.enabled, kept?.failures, kept?.failingSince], [true, 0, null]);
      assert.equal(await ctx.store.pendingDeliveries(), 1, "the endpoint's own stays");
    });
  });
}

function resendCases(ctx: Context): void {
  describe('resending and test events', () => {
    it('queues a delivery again with the same webhook-id, for its own workspace and endpoint only', async () => {
      const ada = await givenWorkspace(ctx, 'ada@example.com');
      const bob = await givenWorkspace(ctx, 'bob@example.com');
      const endpoint = await givenEndpoint(ctx, ada.id, ['link.clicked']);
      const sibling = await givenEndpoint(ctx, ada.id, ['link.created']);
      const bobs = await givenEndpoint(ctx, bob.id, ['link.clicked']);
      const [event] = clickEvents(ada.id, 1);
      assert.ok(event);
      await addNotices(ctx.store, [event]);
      const [claimed] = await claimAll(ctx);
      assert.ok(claimed);
      await ctx.store.finishDeliveries(
        [outcome(claimed, { ok: true, statusCode: 200, error: null })],
        Date.now(),
        NEVER,
      );
      assert.equal(await ctx.store.resend(bob.id, endpoint.id, claimed.id), false);
      assert.equal(await ctx.store.resend(bob.id, bobs.id, claimed.id), false);
      assert.equal(await ctx.store.resend(ada.id, sibling.id, claimed.id), false);
      assert.equal(await ctx.store.resend(ada.id, endpoint.id, claimed.id + 1000), false);
      assert.equal(await ctx.store.pendingDeliveries(), 0);
      assert.equal(await ctx.store.resend(ada.id, endpoint.id, claimed.id), true);
      const [fresh, old] = await ctx.store.listDeliveries(endpoint.id, 0, 10);
      assert.deepEqual(
        [fresh?.messageId, fresh?.state, fresh?.attempts, old?.id, old?.state],
        [event.id, 'pending', 0, claimed.id, 'delivered'],
      );
      const [again, ...rest] = await claimAll(ctx);
      assert.deepEqual(rest, []);
      assert.deepEqual(
        [again?.id, again?.messageId, again?.body, again?.endpointId],
        [fresh?.id, event.id, event.body, endpoint.id],
      );
    });

    it('sends a test event to one endpoint only, and to no unknown one', async () => {
      const ada = await givenWorkspace(ctx, 'ada@example.com');
      const endpoint = await givenEndpoint(ctx, ada.id, ['link.created', 'link.clicked']);
      const sibling = await givenEndpoint(ctx, ada.id, ['link.created', 'link.clicked']);
      const event = newEvent(ada.id, TEST_EVENT_TYPE, { hello: true });
      await ctx.store.sendTo(endpoint.id, event);
      await ctx.store.sendTo(sibling.id + 1000, newEvent(ada.id, TEST_EVENT_TYPE, {}));
      assert.deepEqual(await ctx.store.listDeliveries(sibling.id, 0, 10), []);
      const [claimed, ...rest] = await claimAll(ctx);
      assert.deepEqual(rest, []);
      assert.deepEqual(
        [claimed?.endpointId, claimed?.messageId, claimed?.type, claimed?.body],
        [endpoint.id, event.id, TEST_EVENT_TYPE, event.body],
      );
    });
  });
}

function deliveryListCases(ctx: Context): void {
  describe('listing and purging deliveries', () => {
    it('lists the deliveries since a time, newest first, a page before an id', async () => {
      const ada = await givenWorkspace(ctx, 'ada@example.com');
      const endpoint = await givenEndpoint(ctx, ada.id, ['link.clicked']);
      const other = await givenEndpoint(ctx, ada.id, ['link.clicked'], 'https://other.example/');
      const t0 = Date.now() - 10_000;
      const events = Array.from({ length: 5 }, (_, i) =>
        newEvent(ada.id, TEST_EVENT_TYPE, { i }, t0 + i * 1000),
      );
      for (const event of events) await ctx.store.sendTo(endpoint.id, event);
      await ctx.store.sendTo(other.id, newEvent(ada.id, TEST_EVENT_TYPE, {}));
      const all = await ctx.store.listDeliveries(endpoint.id, 0, 100);
      assert.deepEqual(
        all.map((delivery) => delivery.messageId),
        events.map((event) => event.id).toReversed(),
      );
      assert.ok(all.every((delivery, i) => i === 0 || delivery.id < (all[i - 1]?.id ?? 0)));
      assert.deepEqual(
        all.map((delivery) => delivery.createdAt.getTime()),
        events.map((event) => event.at).toReversed(),
      );
      assert.deepEqual(await ctx.store.listDeliveries(endpoint.id, t0 + 2000, 100), all.slice(0, 3));
      const page = await ctx.store.listDeliveries(endpoint.id, 0, 2);
      assert.deepEqual(page, all.slice(0, 2));
      assert.deepEqual(await ctx.store.listDeliveries(endpoint.id, 0, 2, page[1]?.id), all.slice(2, 4));
      assert.deepEqual(
        await ctx.store.listDeliveries(endpoint.id, t0 + 1000, 10, all[2]?.id),
        all.slice(3, 4),
      );
      assert.deepEqual(await ctx.store.listDeliveries(endpoint.id, Date.now() + 1000, 10), []);
    });

    it('counts pending deliveries, and purges old finished ones and events left without any', async () => {
      const ada = await givenWorkspace(ctx, 'ada@example.com');
      const bob = await givenWorkspace(ctx, 'bob@example.com');
      const endpoint = await givenEndpoint(ctx, ada.id, ['link.clicked']);
      const old = Date.now() - 10 * 86_400_000;
      const oldEvents = clickEvents(ada.id, 4, old);
      await addNotices(ctx.store, [...oldEvents, ...clickEvents(bob.id, 2, old)]);
      await addNotices(ctx.store, clickEvents(ada.id, 2));
      assert.equal(await ctx.store.pendingDeliveries(), 6);
      const claimed = await ctx.store.claimDeliveries(old + 10, 10, LEASE);
      assert.equal(claimed.length, 4);
      const [delivered, failed] = claimed;
      assert.ok(delivered && failed);
      await ctx.store.finishDeliveries(
        [outcome(delivered, { ok: true, statusCode: 200, error: null }), outcome(failed, {})],
        Date.now(),
        NEVER,
      );
      await claimAll(ctx).then((all) =>
        ctx.store.finishDeliveries(
          all
            .filter((delivery) => delivery.createdAt > old + 10)
            .map((delivery) => outcome(delivery, { ok: true, statusCode: 200, error: null })),
          Date.now(),
          NEVER,
        ),
      );
      assert.equal(await ctx.store.pendingDeliveries(), 2, 'two old ones still pending');
      assert.equal(await storedEvents(ctx), 8);

      assert.equal(await ctx.store.purgeDeliveries(old + 1000), 2);
      assert.equal(await ctx.store.pendingDeliveries(), 2);
      const left = await ctx.store.listDeliveries(endpoint.id, 0, 100);
      assert.deepEqual(left.map((delivery) => delivery.state).toSorted(), [
        'delivered',
        'delivered',
        'pending',
        'pending',
      ]);
      assert.ok(!left.some((delivery) => [delivered.id, failed.id].includes(delivery.id)));
      // The two old events delivered or failed, and bob's two never delivered, are gone.
      assert.equal(await storedEvents(ctx), 4);
      assert.equal(await ctx.store.purgeDeliveries(old + 1000), 0);
    });
  });
}

/** A store of the release before webhooks: a workspace, tagged, grouped, deleted and disabled links, clicks. */
/** Links as the abuse release stored them, written in its own columns (the store writes newer ones). */
async function seedOldStore(old: OldDatabase): Promise<{ workspace: { id: number }; links: OldLink[] }> {
  const plan = await oldPlan(old);
  const at = Date.UTC(2024, 2, 1);
  const [user] = await old.run(
    'INSERT INTO users (email, email_verified, operator, created_at) VALUES (?, true, false, ?) RETURNING id',
    'ada@example.com',
    at,
  );
  const [made] = await old.run(
    `INSERT INTO workspaces (slug, name, plan_id, personal_of, link_count, key_count, created_at)
     VALUES ('ada', 'ada@example.com', ?, ?, 0, 0, ?) RETURNING id`,
    plan.id,
    Number(user?.id),
    at,
  );
  const workspace = { id: Number(made?.id) };
  const [group] = await old.run(
    `INSERT INTO groups (account_id, name, api_id, created_at) VALUES (?, 'Work', 'work', ?) RETURNING id`,
    workspace.id,
    at,
  );
  const groupId = Number(group?.id);
  const links: OldLink[] = [];
  for (const [n, url] of ['tagged', 'plain', 'deleted', 'disabled'].entries()) {
    const code = nextCode();
    const [row] = await old.run(
      `INSERT INTO links (code, account_id, group_id, long_url, normalized_url, url_hash, title, created_at, domain_id)
       VALUES (?, ?, ?, ?, ?, ?, '', ?, 0) RETURNING id`,
      code,
      workspace.id,
      n === 0 ? groupId : null,
      `https://example.com/${url}`,
      `https://example.com/${url}`,
      `hash-${code}`,
      Date.UTC(2024, 2, 1) + n,
    );
    links.push({ id: Number(row?.id), code });
  }
  const [tagged, , deleted, disabled] = links;
  assert.ok(tagged && deleted && disabled);
  for (const tag of ['alpha', 'beta'])
    await old.run('INSERT INTO link_tags (link_id, tag) VALUES (?, ?)', tagged.id, tag);
  await oldClicks(old, [{ linkId: tagged.id, day: '2024-03-01', clicks: 3, botHits: 1 }]);
  await old.run('UPDATE links SET deleted_at = ? WHERE id = ?', Date.UTC(2024, 2, 2), deleted.id);
  await old.run(
    "UPDATE links SET disabled_at = ?, disabled_reason = 'phishing' WHERE id = ?",
    Date.UTC(2024, 2, 2),
    disabled.id,
  );
  await old.run('UPDATE workspaces SET link_count = 3 WHERE id = ?', workspace.id);
  return { workspace, links };
}

interface OldLink {
  id: number;
  code: string;
}

/**
 * The webhooks migration (013) without loss: a store made by the migrations up to 012 and holding
 * links is migrated, then its links read back as they were, and the new tables empty and usable.
 */
export function runWebhookMigration(name: string, makeOld: () => Promise<OldDatabase>): void {
  describe(`the webhooks migration on ${name}, from a store of the abuse release`, () => {
    let old: OldDatabase;
    let store: Store;
    let applied: string[];
    let seed: { workspace: { id: number }; links: OldLink[] };
    let linksBefore: Row[];
    let tagsBefore: Row[];
    const TAG_ROWS = 'SELECT link_id, tag FROM link_tags ORDER BY link_id, tag';

    before(async () => {
      old = await makeOld();
      seed = await seedOldStore(old);
      linksBefore = await linkRows(old);
      tagsBefore = await old.run(TAG_ROWS);
      store = old.open();
      applied = await store.migrate();
    });

    after(async () => {
      await store?.close();
      await old?.remove();
    });

    it('applies 013-webhooks and what follows it, nothing before', async () => {
      const since013 = (await loadMigrations(old.dialect)).filter((migration) => migration.name >= '013');
      assert.equal(applied[0], '013-webhooks');
      assert.deepEqual(
        applied,
        since013.map((migration) => migration.name),
      );
    });

    it('keeps every link row and tag as it was', async () => {
      assert.equal(linksBefore.length, 4);
      // Later migrations add columns; the columns the links had keep their values, the workspace's
      // too, read as `owner` whether it is named account_id or, from 016 on, workspace_id.
      const columns = Object.keys(linksBefore[0] ?? {});
      assert.ok(columns.includes('owner'));
      const after = (await linkRows(old)).map((row) => Object.fromEntries(columns.map((c) => [c, row[c]])));
      assert.deepEqual(
        after,
        linksBefore.map((row) => ({ ...row })),
      );
      assert.deepEqual(await old.run(TAG_ROWS), tagsBefore);
      const [tagged, plain, deleted, disabled] = seed.links;
      assert.ok(tagged && plain && deleted && disabled);
      for (const link of [tagged, plain]) {
        assert.deepEqual(await store.findLinkById(link.id), await store.findLinkByCode(0, link.code));
      }
      assert.deepEqual(
        [(await store.findLinkById(tagged.id))?.clicks, (await store.findLinkById(plain.id))?.longUrl],
        [3, 'https://example.com/plain'],
      );
      assert.equal(await store.findLinkByCode(0, deleted.code), undefined);
      assert.equal((await store.findLinkById(disabled.id))?.disabled?.reason, 'phishing');
      assert.deepEqual((await store.tagsOf([tagged.id])).get(tagged.id), ['alpha', 'beta']);
      assert.equal(await store.countLiveLinks(seed.workspace.id), 3);
    });

    it('starts without endpoints or deliveries, and writes the events of the old links', async () => {
      assert.equal(await store.webhookVersion(), 0);
      assert.equal(await store.pendingDeliveries(), 0);
      assert.deepEqual(await store.listEndpoints(seed.workspace.id), []);
      assert.deepEqual(await store.clickSubscribers(), []);
      const endpoint = await store.createEndpoint({
        workspaceId: seed.workspace.id,
        url: 'https://hooks.example/in',
        events: ['link.updated'],
        description: '',
        secret: newSigningSecret(),
      });
      const tagged = seed.links[0];
      assert.ok(tagged);
      const { sink } = sinkOf();
      assert.equal(
        (await store.updateLink(seed.workspace.id, 0, tagged.code, { title: 'T' }, sink)).kind,
        'updated',
      );
      const [delivery] = await store.claimDeliveries(Date.now() + LEASE, 10, LEASE);
      assert.equal(delivery?.endpointId, endpoint.id);
      assert.deepEqual(bodyOf(delivery).data, { code: tagged.code, tags: ['alpha', 'beta'], group: 'Work' });
    });
  });
}
