import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { type Joined, joinPorts, type PortName, type Ports } from '../core/ports/store.ts';
import { type Command, type CommandCode, type FlagTable, withDeps } from '../terminal/command.ts';
import type { AssetFiles } from '../web/assets.ts';
import type { Answer, EventName, Payload } from './events.ts';
import type { FeatureName, FeatureServices, Kernel } from './kernel.ts';

/**
 * What a feature brings, said once in its `index.ts` (docs/adr/034): the store's ports it uses, how
 * its services are built from the kernel, what it listens to on the bus, its HTTP surfaces and its
 * commands. The heavy parts sit behind `import()`, so reading every descriptor (the command line's
 * help does) loads none of their code. Each part is handed the ports the descriptor names and
 * states the ones it uses (`P`); a part stating one the descriptor does not name fails to compile.
 */

/** What the command line gives every command: the kernel opened for it, and its feature's ports. */
export interface Given<P extends PortName = never> {
  kernel: Kernel;
  ports: Pick<Ports, P>;
}

/** How a surface is added: to the server (or the /api/v1 scope), from the kernel and the feature's ports. */
type Surface<P extends PortName> = (
  app: FastifyInstance,
  kernel: Kernel,
  ports: Pick<Ports, P>,
) => Promise<void>;

/**
 * A feature's HTTP surfaces; the server registers each kind in the registry's order. Written as
 * properties, not methods, so the ports a surface states are checked against the descriptor's.
 */
export interface FeatureHttp<P extends PortName = never> {
  /** Plugins that must see every route as it is added (the OpenAPI collector), before any route. */
  early?: Surface<P>;
  /**
   * An answer below the router, for a hot path that cannot afford it (the redirect): true when it
   * answered the request.
   */
  belowRouter?: (kernel: Kernel) => Promise<(req: IncomingMessage, res: ServerResponse) => boolean>;
  /** Route patterns whose answers are logged only at debug. */
  quiet?: readonly string[];
  /** Schemas its routes refer to by `$ref` (they appear in /openapi.json in this order). */
  schemas?: readonly TSchema[];
  /** Routes on the root, after every page: public endpoints, compatibility APIs, the redirect. */
  routes?: Surface<P>;
  /** Sets up the /api/v1 scope before any resource is added to it (how its keys are checked). */
  apiScope?: Surface<P>;
  /** Resources under /api/v1, behind keys and problem documents. */
  api?: Surface<P>;
  /** Pages and their forms, after every API. */
  pages?: Surface<P>;
  /** Files served from /assets/<name>. */
  assets?: AssetFiles;
}

/** Listeners on the bus, each given the feature's own services. */
export type Listeners<S> = {
  [E in EventName]?: (services: S, payload: Payload<E>) => Answer<E> | Promise<Answer<E>>;
};

export interface Feature<S = unknown, P extends PortName = PortName> {
  /** Its folder's name; for a feature with services, its key in FeatureServices. */
  readonly name: string;
  /** The store's ports its services, surfaces and commands use: it is handed these, and only these. */
  readonly ports: readonly P[];
  /** Builds its services on first use, once per process; starts no timer (see `kernel.onStart`). */
  services?(kernel: Kernel, ports: Pick<Ports, P>): Promise<S>;
  /** What it listens to, wired once its services are built. */
  on?: Listeners<S>;
  /** Its HTTP surfaces, loaded when the server is built. */
  http?(): Promise<FeatureHttp<P>>;
  /** Its `snip` commands: their usage here, their code loaded when one runs. */
  cli?: {
    flags?: FlagTable;
    /** Flags that clear what a string flag sets (`--no-group`). */
    negated?: readonly string[];
    commands: Readonly<Record<string, Command<FlagTable, Given<P>>>>;
  };
}

/** The services a feature of that name builds: its entry in FeatureServices, none for another name. */
type ServicesOf<N extends string> = N extends FeatureName ? FeatureServices[N] : never;

/**
 * A descriptor, its services' type checked against the name it is registered under, its ports read
 * from its `ports` alone (each part that states others fails to compile).
 */
export function feature<const N extends string, P extends PortName = never>(
  descriptor: Omit<Feature<ServicesOf<N>, P>, 'services' | 'http' | 'cli'> & {
    name: N;
    services?(kernel: Kernel, ports: Pick<Ports, NoInfer<P>>): Promise<ServicesOf<N>>;
    http?(): Promise<FeatureHttp<NoInfer<P>>>;
    cli?: Feature<ServicesOf<N>, NoInfer<P>>['cli'];
  },
): Feature<ServicesOf<N>, P> {
  return descriptor;
}

/** What most commands run with: the ports they state, and the store seen through all of them. */
export interface StoreOf<P extends PortName> {
  ports: Pick<Ports, P>;
  store: Joined<Pick<Ports, P>>;
}

/** Commands that run with the store, seen through the ports they state (`StoreOf<…>`). */
export function withStore<F extends FlagTable, P extends PortName>(
  commands: Readonly<Record<string, CommandCode<F, StoreOf<P>>>>,
): Record<string, CommandCode<F, Given<P>>> {
  return withDeps(commands, async ({ ports }: Given<P>) => ({ ports, store: joinPorts(ports) }));
}
