import type { FastifyServerOptions } from 'fastify';
import { withDeadline } from '../adapters/deadline.ts';
import type { Resolver } from '../adapters/inspect/types.ts';
import { MemoryDemoLog } from '../adapters/memory/demo-log.ts';
import { LocalLinkEvents } from '../adapters/memory/link-events.ts';
import { MemoryWindowCounter } from '../adapters/memory/window-counter.ts';
import type { Config } from '../config.ts';
import type { RecordAudit } from '../core/moderation.ts';
import type { CountryLookup } from '../core/ports/geo.ts';
import type { Inspector } from '../core/ports/inspector.ts';
import type { LiveClicks } from '../core/ports/live-clicks.ts';
import type { Mailer } from '../core/ports/mailer.ts';
import type { ReadinessCheck } from '../core/ports/readiness.ts';
import type { DemoLog, LinkEvents, WindowCounter } from '../core/ports/shared-state.ts';
import { type PortName, type Ports, portsOf, type Store } from '../core/ports/store.ts';
import type { TxtResolver } from '../core/ports/txt-resolver.ts';
import type { VisitLimits } from '../core/ports/visit-limits.ts';
import type { Visitors } from '../core/ports/visitors.ts';
import { type LateLogger, lateLogger } from '../http/late-logger.ts';
import type { FrameOf } from '../web/frame.ts';
import { frameOfSession } from '../web/session/handlers.ts';
import { sessionService } from '../web/session/sessions.ts';
import type { WorkspaceDeps } from '../web/session/workspace-pages.ts';
import { EventBus } from './event-bus.ts';
import type { EventName } from './events.ts';
import { createMetrics, type Metrics, timedStore, type WorkerMetrics } from './metrics.ts';
import { announcerOnDemand } from './shared-links.ts';

/**
 * The kernel: what every feature may ask for, built once per process from the adapters the process
 * (or a test) gives — the store, counters, the clock, a logger, mail, metrics, the event bus, the
 * announcements other instances hear — and each feature's services, built on first use through its
 * descriptor (docs/adr/034). The server and the command line open the same kernel.
 */

/**
 * Each feature's services by its name: a feature's `index.ts` adds its entry (`declare module`),
 * and `kernel.use(name)` answers with that type.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by each feature's declaration.
export interface FeatureServices {}

export type FeatureName = keyof FeatureServices;

/** What the kernel reads of a feature's descriptor (kernel/feature.ts): its name, its ports, how it builds, what it hears. */
export interface Buildable {
  readonly name: string;
  readonly ports: readonly PortName[];
  services?(kernel: Kernel, ports: Ports): Promise<unknown>;
  on?: { [E in EventName]?: (services: never, payload: never) => unknown };
}

/** What the process (or a test) gives; what is left out gets an in-process default. */
export interface KernelDeps {
  store: Store;
  /** Defaults to the real inspector with the configured address guard. */
  inspector?: Inspector;
  counter?: WindowCounter;
  demoLog?: DemoLog;
  /** Cache invalidation across instances (Redis pub/sub); in-process by default. */
  linkEvents?: LinkEvents;
  /** Clicks as they are recorded, to live listeners on every instance (Redis); in-process by default. */
  liveClicks?: LiveClicks;
  /** Visit limits shared by every instance (Redis); the store's atomic update by default. */
  visitLimits?: VisitLimits;
  /** The country of a client address, for targeting rules and analytics; none known by default. */
  countries?: CountryLookup;
  /** The day's unique-visitor sets (Redis for several instances); in memory by default. */
  visitors?: Visitors;
  /** Dependencies besides the store that /readyz checks (Redis). */
  readinessChecks?: ReadinessCheck[];
  logger?: FastifyServerOptions['logger'];
  now?: () => number;
  /** Where mail goes; by default SMTP_URL through nodemailer, or none without it. */
  mailer?: Mailer;
  /** TXT look-ups that verify domains; the system resolver by default (tests inject theirs). */
  resolveTxt?: TxtResolver;
  /** Name look-ups of webhook endpoints; the system resolver by default (tests inject theirs). */
  resolveWebhooks?: Resolver;
  /** A worker of `snip serve --processes N`: /metrics answers every worker's series (docs/adr/052). */
  workerMetrics?: WorkerMetrics;
  /**
   * The DATABASE_URL a worker thread opens to deliver webhooks from, off the redirect's thread (the
   * server's own); without it the dispatcher runs on this thread (tests that inject a resolver).
   */
  deliverFrom?: string;
}

/**
 * `server`: store calls under STORE_TIMEOUT_MS and timed for /metrics, background work begun by
 * start(). `command`: the store as opened, nothing in the background, Redis only if a change is
 * announced.
 */
export type KernelMode = 'server' | 'command';

type Step = () => void | Promise<void>;

export class Kernel {
  readonly config: Config;
  readonly mode: KernelMode;
  /** What the process gave, as given, but the store: features reach it through their ports alone. */
  readonly given: Omit<KernelDeps, 'store'>;
  /** The store as features use it (in a server: under deadlines, timed). */
  readonly #store: Store;
  /** The store under deadlines but not timed: for polls that would crowd the timings out of /metrics. */
  readonly #untimed: Store;
  /** The store as opened: an embedded store's look-ups answered at once keep their form. */
  readonly #opened: Store;
  readonly counter: WindowCounter;
  readonly now: () => number;
  /** Failures of background work; bound to the server's (or the command line's) logger. */
  readonly log: LateLogger = lateLogger();
  readonly metrics: Metrics;
  readonly bus: EventBus;
  /** Announcements every instance hears (a link or the domains changed). */
  readonly linkEvents: LinkEvents;
  readonly demoLog: DemoLog;
  readonly #features: ReadonlyMap<string, Buildable>;
  readonly #built = new Map<string, Promise<unknown>>();
  readonly #starts: Step[] = [];
  readonly #closes: Step[] = [];
  readonly #connect: () => Promise<void>;
  #mailer: Mailer | undefined | null = null;
  #session: WorkspaceDeps | undefined;
  #started = false;

  constructor(config: Config, given: KernelDeps, features: readonly Buildable[], mode: KernelMode) {
    this.config = config;
    this.mode = mode;
    const { store, ...rest } = given;
    this.given = rest;
    this.metrics = createMetrics();
    given.workerMetrics?.share(this.metrics.registry);
    this.#opened = store;
    this.#untimed = mode === 'server' ? withDeadline(store, config.storeTimeoutMs) : store;
    this.#store = mode === 'server' ? timedStore(this.#untimed, this.metrics) : store;
    this.counter = given.counter ?? new MemoryWindowCounter();
    this.now = given.now ?? Date.now;
    this.demoLog = given.demoLog ?? new MemoryDemoLog();
    this.bus = new EventBus((event, error) => this.log.error(`a listener of ${event} failed`)(error));
    const announcer =
      !given.linkEvents && mode === 'command' && config.redisUrl
        ? announcerOnDemand({ ...config, redisUrl: config.redisUrl })
        : undefined;
    this.linkEvents = given.linkEvents ?? announcer?.events ?? new LocalLinkEvents();
    this.#connect = announcer?.connect ?? (async () => {});
    this.#features = new Map(features.map((feature) => [feature.name, feature]));
  }

  /** The services of the feature of that name, built now if they are not yet (with what they ask for). */
  use<N extends FeatureName>(name: N): Promise<FeatureServices[N]> {
    let built = this.#built.get(name);
    if (!built) {
      const feature = this.#features.get(name);
      if (!feature?.services) throw new Error(`no feature named ${name} builds services`);
      built = feature.services(this, this.portsOf(feature)).then((services) => {
        for (const [event, listener] of Object.entries(feature.on ?? {})) {
          // Typed by the descriptor (Listeners<S>); the bus keeps them by name.
          this.bus.on(event as 'link.created', (payload) =>
            (listener as (s: unknown, p: unknown) => void)(services, payload),
          );
        }
        return services;
      });
      this.#built.set(name, built);
    }
    return built as Promise<FeatureServices[N]>;
  }

  /**
   * The ports a feature declared, and no other: what its services, surfaces and commands are handed
   * (by the kernel, the server and the command line; a feature never asks for them itself).
   */
  portsOf<P extends PortName>(feature: { readonly ports: readonly P[] }): Pick<Ports, P> {
    return portsOf(this.#store, feature.ports);
  }

  /** The same ports, their calls not timed: for polls that would crowd the timings out of /metrics. */
  untimed<P extends Partial<Ports>>(ports: P): P {
    return this.#over(this.#untimed, ports);
  }

  /** The same ports on the store as opened, without deadlines or timing: look-ups answered at once stay so. */
  opened<P extends Partial<Ports>>(ports: P): P {
    return this.#over(this.#opened, ports);
  }

  #over<P extends Partial<Ports>>(store: Store, ports: P): P {
    return portsOf(store, Object.keys(ports) as PortName[]) as P;
  }

  /** Builds every feature's services, in the registry's order (a server serves them all). */
  async useAll(): Promise<void> {
    for (const [name, feature] of this.#features) if (feature.services) await this.use(name as FeatureName);
  }

  /** Mail as configured (SMTP_URL, MAIL_FROM), made on first use; none without it. */
  async mailer(): Promise<Mailer | undefined> {
    if (this.#mailer === null) {
      const { mail } = this.config;
      this.#mailer =
        this.given.mailer ??
        (mail ? (await import('../adapters/mail/smtp-mailer.ts')).smtpMailer(mail) : undefined);
      const made = this.#mailer;
      if (made && made !== this.given.mailer) this.onClose(() => made.close());
    }
    return this.#mailer;
  }

  /** Records in the audit log; a log that cannot be written is reported, never thrown. */
  readonly audit: RecordAudit = (entry) =>
    this.#store.addAudit(entry).catch(this.log.error('the audit log could not be written'));

  /** BASE_URL without a trailing slash: where the default domain's URLs start. */
  get origin(): string {
    return this.config.baseUrl.href.replace(/\/$/, '');
  }

  /** Who is signed in, for every page. */
  get session(): WorkspaceDeps {
    this.#session ??= {
      sessions: sessionService({
        store: this.#store,
        ttlMs: this.config.sessionTtlHours * 3_600_000,
        now: this.now,
      }),
      accounts: this.#store,
      workspaces: this.#store,
      policy: { secure: this.config.baseUrl.protocol === 'https:' },
      now: this.now,
      requireVerifiedEmail: this.config.emailVerification === 'required',
    };
    return this.#session;
  }

  /** The signed-in frame (navigation) of a page's request. */
  get frameOf(): FrameOf {
    return frameOfSession(this.session);
  }

  /** Before a command changes what servers cache: connects to Redis when REDIS_URL is set (69 if it cannot). */
  readyToAnnounce(): Promise<void> {
    return this.#connect();
  }

  /** Work that runs in the background (timers, the dispatcher), begun by start(). */
  onStart(step: Step): void {
    if (this.#started) void Promise.resolve(step()).catch(this.log.error('a background start failed'));
    else this.#starts.push(step);
  }

  /** What close() ends, the latest added first: what was built on top ends before what it stands on. */
  onClose(step: Step): void {
    this.#closes.push(step);
  }

  async start(): Promise<void> {
    this.#started = true;
    for (const step of this.#starts.splice(0)) await step();
  }

  async close(): Promise<void> {
    for (const step of this.#closes.splice(0).reverse()) await step();
    await this.demoLog.close();
    await this.linkEvents.close();
  }
}

export function openKernel(
  config: Config,
  given: KernelDeps,
  features: readonly Buildable[],
  mode: KernelMode,
): Kernel {
  return new Kernel(config, given, features, mode);
}
