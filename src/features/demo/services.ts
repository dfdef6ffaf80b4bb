import type { Ports } from '../../core/ports/store.ts';
import type { Kernel } from '../../kernel/kernel.ts';
import type { CreateLinkService } from '../links/index.ts';
import { demoKeys, demoLinkStore } from './demo-keys.ts';

/** The demo's create service (ADR 008): /create's checks behind the demo key's own gate; nothing stored. */
export async function demoServices(kernel: Kernel, ports: Pick<Ports, 'links'>): Promise<DemoServices> {
  const { config } = kernel;
  const { creator } = await kernel.use('links');
  const { keyChecks } = await kernel.use('workspaces');
  const keys = demoKeys({
    ...keyChecks,
    demoKey: config.demoApiKey,
    limit: config.demoRateLimit,
    windowMs: config.demoRateWindowSeconds * 1000,
  });
  return { demo: creator({ store: demoLinkStore(ports.links), keys, quiet: true }) };
}

export interface DemoServices {
  demo: CreateLinkService;
}
