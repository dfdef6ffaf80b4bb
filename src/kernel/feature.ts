import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Command, FlagTable } from '../terminal/command.ts';
import type { AssetFiles } from '../web/assets.ts';
import type { Answer, EventName, Payload } from './events.ts';
import type { FeatureName, FeatureServices, Kernel } from './kernel.ts';

/**
 * What a feature brings, said once in its `index.ts` (docs/adr/034): how its services are built
 * from the kernel, what it listens to on the bus, its HTTP surfaces and its commands. The heavy
 * parts sit behind `import()`, so reading every descriptor (the command line's help does) loads
 * none of their code.
 */

/** What the command line gives every command: the kernel, opened for it. */
export interface Given {
  kernel: Kernel;
}

/** A feature's HTTP surfaces; the server registers each kind in the registry's order. */
export interface FeatureHttp {
  /** Plugins that must see every route as it is added (the OpenAPI collector), before any route. */
  early?(app: FastifyInstance, kernel: Kernel): Promise<void>;
  /**
   * An answer below the router, for a hot path that cannot afford it (the redirect): true when it
   * answered the request.
   */
  belowRouter?(kernel: Kernel): Promise<(req: IncomingMessage, res: ServerResponse) => boolean>;
  /** Route patterns whose answers are logged only at debug. */
  quiet?: readonly string[];
  /** Schemas its routes refer to by `$ref` (they appear in /openapi.json in this order). */
  schemas?: readonly TSchema[];
  /** Routes on the root, after every page: public endpoints, compatibility APIs, the redirect. */
  routes?(app: FastifyInstance, kernel: Kernel): Promise<void>;
  /** Sets up the /api/v1 scope before any resource is added to it (how its keys are checked). */
  apiScope?(v1: FastifyInstance, kernel: Kernel): Promise<void>;
  /** Resources under /api/v1, behind keys and problem documents. */
  api?(v1: FastifyInstance, kernel: Kernel): Promise<void>;
  /** Pages and their forms, after every API. */
  pages?(app: FastifyInstance, kernel: Kernel): Promise<void>;
  /** Files served from /assets/<name>. */
  assets?: AssetFiles;
}

/** Listeners on the bus, each given the feature's own services. */
export type Listeners<S> = {
  [E in EventName]?: (services: S, payload: Payload<E>) => Answer<E> | Promise<Answer<E>>;
};

export interface Feature<S = unknown> {
  /** Its folder's name; for a feature with services, its key in FeatureServices. */
  readonly name: string;
  /** Builds its services on first use, once per process; starts no timer (see `kernel.onStart`). */
  services?(kernel: Kernel): Promise<S>;
  /** What it listens to, wired once its services are built. */
  on?: Listeners<S>;
  /** Its HTTP surfaces, loaded when the server is built. */
  http?(): Promise<FeatureHttp>;
  /** Its `snip` commands: their usage here, their code loaded when one runs. */
  cli?: {
    flags?: FlagTable;
    /** Flags that clear what a string flag sets (`--no-group`). */
    negated?: readonly string[];
    commands: Readonly<Record<string, Command<FlagTable, Given>>>;
  };
}

/** A descriptor, its services' type checked against the name it is registered under. */
export function feature<N extends FeatureName>(descriptor: Feature<FeatureServices[N]> & { name: N }) {
  return descriptor;
}

/** What most commands run with: the store as the kernel opened it. */
export async function storeOf({ kernel }: Given) {
  return { store: kernel.store };
}
