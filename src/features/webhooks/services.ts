import { DAY_MS } from '../../core/days.ts';
import type { RecordAudit } from '../../core/moderation.ts';
import type { ModerationStore } from '../../core/ports/abuse-store.ts';
import type { EventPublisher, WebhookSender } from '../../core/ports/event-sinks.ts';
import type { Mailer } from '../../core/ports/mailer.ts';
import { joinPorts, type Ports, type WorkspaceStore } from '../../core/ports/store.ts';
import type { LinkEventSink, WebhookEndpoint, WebhookStore } from '../../core/ports/webhook-store.ts';
import type { WebhookSettings } from '../../core/settings.ts';
import type { LinkOrigins } from '../../core/short-url.ts';
import { eventSinksOf } from '../../kernel/adapters.ts';
import type { Kernel } from '../../kernel/kernel.ts';
import { clickEvents } from './click-events.ts';
import { conversionEventSink } from './conversion-events.ts';
import { deliveryThread } from './delivery-thread.ts';
import { disabledMailer } from './disabled-mail.ts';
import { Dispatcher } from './dispatcher.ts';
import { DELIVERY_DAYS, endpointService } from './endpoints.ts';
import { linkEventSink } from './link-events.ts';
import { OutboxGauge } from './outbox-gauge.ts';
import { disablePolicy } from './retry-schedule.ts';
import { Subscribers } from './subscribers.ts';
import { webhookMetrics } from './webhook-metrics.ts';

/**
 * Webhooks and the event stream (docs/api.md §14): each workspace's endpoints, the events of links'
 * changes made in their transactions (the sink), the click events a flush writes with its clicks
 * (answered on `clicks.flushing`), and the dispatcher that sends them, signed, to endpoints and to
 * the operator's RabbitMQ once the server runs. A command makes events but never sends them.
 */

/** How often finished deliveries past DELIVERY_DAYS are purged. */
const PURGE_EVERY_MS = 3_600_000;

interface WebhookServicesOptions {
  store: WebhookStore & WorkspaceStore & ModerationStore;
  settings: WebhookSettings;
  /** Endpoints over HTTP, the stream, and the target address policy for endpoint URLs; closed on stop. */
  sinks: {
    sender: WebhookSender;
    publisher?: EventPublisher;
    mayReach: (url: URL) => Promise<boolean>;
    close(): Promise<void>;
  };
  origins: LinkOrigins;
  audit: RecordAudit;
  mail?: { mailer: Mailer; baseUrl: URL };
  now?: () => number;
  /** The first wait between looks at the outbox besides each wake; default 1 s. */
  pollMs?: number;
  /** Delivers from a worker thread that opens this DATABASE_URL itself, rather than on this thread. */
  deliverFrom?: { databaseUrl: string; allowPrivate: boolean };
  onAttempts?: (sink: 'endpoint' | 'stream', outcome: 'delivered' | 'failed', count: number) => void;
  onError: (what: string) => (error: unknown) => void;
}

/** How often who hears clicks is read again (the webhook version, one row), docs/adr/029. */
const SUBSCRIBERS_EVERY_MS = 1000;

/** The dispatcher on this thread, or in a worker thread with its own store connection (ADR 051). */
function dispatcherOf(
  options: WebhookServicesOptions,
  gauge: OutboxGauge,
  onDisabled: (endpoint: WebhookEndpoint) => void,
) {
  const { settings } = options;
  if (options.deliverFrom)
    return deliveryThread({
      ...options.deliverFrom,
      amqpUrl: settings.amqpUrl,
      retryBaseMs: settings.retryBaseMs,
      pollMs: options.pollMs,
      onPending: (count) => gauge.counted(count),
      onAttempts: (sink, outcome, count) => options.onAttempts?.(sink, outcome, count),
      onDisabled,
      onError: options.onError,
    });
  return new Dispatcher({
    store: options.store,
    sender: options.sinks.sender,
    publisher: options.sinks.publisher,
    retryBaseMs: settings.retryBaseMs,
    policy: disablePolicy(settings.retryBaseMs),
    pollMs: options.pollMs,
    now: options.now,
    onPending: (count) => gauge.counted(count),
    onAttempt: (sink, attempt) => options.onAttempts?.(sink, attempt.ok ? 'delivered' : 'failed', 1),
    onDisabled,
    onError: options.onError,
  });
}

function webhookServices(options: WebhookServicesOptions) {
  const { store, settings } = options;
  const now = options.now ?? Date.now;
  const subscribers = new Subscribers(store, settings.amqpUrl !== undefined);
  const gauge = new OutboxGauge(settings.outboxMax);
  const told = options.mail
    ? disabledMailer({
        store,
        ...options.mail,
        onError: options.onError('mailing a disabled endpoint failed'),
      })
    : undefined;
  const refreshFailed = options.onError('reading who hears clicks failed');
  const dispatcher = dispatcherOf(options, gauge, (endpoint) => {
    void told?.(endpoint);
    void subscribers.refresh().catch(refreshFailed);
  });
  // Until the dispatcher runs (never in a command) a wake would send from this process.
  let started = false;
  const wake = () => {
    if (started) dispatcher.wake();
  };
  const endpoints = endpointService({
    store,
    mayReach: options.sinks.mayReach,
    audit: options.audit,
    changed: () => {
      void subscribers.refresh().catch(refreshFailed);
      wake();
    },
    queued: wake,
    now,
  });
  const notices = clickEvents({ store, origins: options.origins, subscribers, gauge });
  const waking = soonWaker(wake);
  const sink = wakingSink(linkEventSink(options.origins, settings), waking.soon);
  let purge: NodeJS.Timeout | undefined;
  let reread: NodeJS.Timeout | undefined;
  // A delivery thread starts with its first wake: once there may be something to deliver, or
  // an event was made here (docs/adr/053).
  let demanded = false;
  const demand = () => {
    if (demanded || !subscribers.mayDeliver) return;
    demanded = true;
    wake();
  };
  const reading = () => subscribers.refresh().then(demand, refreshFailed);
  return {
    /** Makes each link change's event in its transaction. */
    sink,
    /** Makes each lead's and sale's event in its transaction (docs/api.md §20). */
    conversionSink: conversionEventSink(options.origins, settings, () => waking.soon(10)),
    /** Makes a flush's click events; the dispatcher looks soon after the flush commits. */
    async clickNotices(...args: Parameters<typeof notices>) {
      const made = await notices(...args);
      if (made) waking.soon(50);
      return made;
    },
    endpoints,
    dispatcher,
    subscribers,
    gauge,
    async start(): Promise<void> {
      started = true;
      dispatcher.start();
      await reading();
      reread = setInterval(() => void reading(), SUBSCRIBERS_EVERY_MS);
      reread.unref();
      purge = setInterval(() => {
        store
          .purgeDeliveries(now() - DELIVERY_DAYS * DAY_MS)
          .catch(options.onError('purging deliveries failed'));
      }, PURGE_EVERY_MS);
      purge.unref();
    },
    async stop(): Promise<void> {
      clearInterval(purge);
      clearInterval(reread);
      waking.stop();
      await dispatcher.stop();
      await options.sinks.close();
    },
  };
}

/**
 * Wakes the dispatcher a little after an event was made inside its change's transaction, once the
 * change has likely committed (the poll catches one that took longer); events made at once share
 * one wake.
 */
function soonWaker(wake: () => void) {
  let timer: NodeJS.Timeout | undefined;
  return {
    soon(ms: number) {
      timer ??= setTimeout(() => {
        timer = undefined;
        wake();
      }, ms);
      timer.unref();
    },
    stop: () => clearTimeout(timer),
  };
}

/** The sink, each event it makes waking the dispatcher soon after. */
function wakingSink(sink: LinkEventSink, soon: (ms: number) => void): LinkEventSink {
  return {
    stream: sink.stream,
    render(type, view) {
      soon(10);
      return sink.render(type, view);
    },
  };
}

/** The webhooks of this process, from the kernel: started with the server, stopped with it. */
export async function webhooksOf(kernel: Kernel, ports: Pick<Ports, 'webhooks' | 'workspaces' | 'abuse'>) {
  const { config } = kernel;
  const domains = await kernel.use('domains');
  const mailer = await kernel.mailer();
  let counted: ReturnType<typeof webhookMetrics> | undefined;
  const events = webhookServices({
    store: joinPorts(ports),
    settings: config.webhooks,
    sinks: eventSinksOf(kernel),
    origins: domains.registry,
    audit: kernel.audit,
    mail: mailer && { mailer, baseUrl: config.baseUrl },
    now: kernel.now,
    onAttempts: (sink, outcome, count) => counted?.(sink, outcome, count),
    // The server delivers from a thread of its own; a test that injects a resolver, on this one.
    deliverFrom:
      kernel.given.deliverFrom && !kernel.given.resolveWebhooks
        ? { databaseUrl: kernel.given.deliverFrom, allowPrivate: config.allowPrivateTargets }
        : undefined,
    onError: (what) => kernel.log.error(what),
  });
  counted = webhookMetrics(kernel.metrics, events.gauge);
  // The dispatcher and the purge run only in a server, once it listens (app.ts).
  kernel.onClose(() => events.stop());
  kernel.onStart(() => events.start());
  return events;
}

export type WebhookServices = Awaited<ReturnType<typeof webhooksOf>>;
