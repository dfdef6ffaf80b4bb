import type { FastifyServerOptions } from 'fastify';
import type { CountryLookup } from './core/ports/geo.ts';
import type { Inspector } from './core/ports/inspector.ts';
import type { Mailer } from './core/ports/mailer.ts';
import type { ReadinessCheck } from './core/ports/readiness.ts';
import type { DemoLog, LinkEvents, WindowCounter } from './core/ports/shared-state.ts';
import type { Store } from './core/ports/store.ts';
import type { VisitLimits } from './core/ports/visit-limits.ts';
import type { Visitors } from './core/ports/visitors.ts';
import type { DomainsService, TxtResolver } from './features/domains/index.ts';

/** What the process (or a test) gives the server, and what the link services run on (services.ts). */

/** What the process (or a test) gives the server. */
export interface AppDeps {
  store: Store;
  /** Defaults to the real inspector with the configured address guard. */
  inspector?: Inspector;
  counter?: WindowCounter;
  demoLog?: DemoLog;
  /** Cache invalidation across instances (Redis pub/sub); in-process by default. */
  linkEvents?: LinkEvents;
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
}

/** What creating and changing links run on, in the server and in `snip link …` alike. */
export interface LinkPorts {
  inspector: Inspector;
  counter: WindowCounter;
  /** The domains links go on (docs/api.md §12). */
  domains: Pick<DomainsService, 'forNewLink' | 'isOwnHost'>;
  now?: () => number;
}
