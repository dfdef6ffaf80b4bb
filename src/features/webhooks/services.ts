import { DAY_MS } from '../../core/days.ts';
import type { RecordAudit } from '../../core/moderation.ts';
import type { ModerationStore } from '../../core/ports/abuse-store.ts';
import type { DeliveryAttempt, EventPublisher, WebhookSender } from '../../core/ports/event-sinks.ts';
import type { Mailer } from '../../core/ports/mailer.ts';
import { joinPorts, type Ports, type WorkspaceStore } from '../../core/ports/store.ts';
import type { LinkEventSink, WebhookStore } from '../../core/ports/webhook-store.ts';
import type { WebhookSettings } from '../../core/settings.ts';
import type { LinkOrigins } from '../../core/short-url.ts';
import { eventSinksOf } from '../../kernel/adapters.ts';
import type { Kernel } from '../../kernel/kernel.ts';
import { clickEvents } from './click-events.ts';
import { conversionEventSink } from './conversion-events.ts';
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
  /** How often the outbox is looked at besides each wake; default 1 s. */
  pollMs?: number;
  onAttempt?: (kind: 'endpoint' | 'stream', attempt: DeliveryAttempt) => void;
  onError: (what: string) => (error: unknown) => void;
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
  const dispatcher = new Dispatcher({
    store,
    sender: options.sinks.sender,
    publisher: options.sinks.publisher,
    gauge,
    retryBaseMs: settings.retryBaseMs,
    policy: disablePolicy(settings.retryBaseMs),
    pollMs: options.pollMs,
    now,
    onAttempt: options.onAttempt,
    onDisabled: (endpoint) => void told?.(endpoint),
    onPoll: () => subscribers.refresh(),
    onError: options.onError,
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
      void subscribers.refresh().catch(options.onError('reading who hears clicks failed'));
      wake();
    },
    queued: wake,
    now,
  });
  const notices = clickEvents({ store, origins: options.origins, subscribers, gauge });
  const waking = soonWaker(wake);
  const sink = wakingSink(linkEventSink(options.origins, settings), waking.soon);
  let purge: NodeJS.Timeout | undefined;
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
      await subscribers.refresh().catch(options.onError('reading who hears clicks failed'));
      started = true;
      dispatcher.start();
      purge = setInterval(() => {
        store
          .purgeDeliveries(now() - DELIVERY_DAYS * DAY_MS)
          .catch(options.onError('purging deliveries failed'));
      }, PURGE_EVERY_MS);
      purge.unref();
    },
    async stop(): Promise<void> {
      clearInterval(purge);
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
    onAttempt: (sink, attempt) => counted?.(sink, attempt),
    onError: (what) => kernel.log.error(what),
  });
  counted = webhookMetrics(kernel.metrics, events.gauge);
  // The dispatcher and the purge run only in a server, once it listens (app.ts).
  kernel.onClose(() => events.stop());
  kernel.onStart(() => events.start());
  return events;
}

export type WebhookServices = Awaited<ReturnType<typeof webhooksOf>>;
