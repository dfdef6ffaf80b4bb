import { feature } from '../../kernel/feature.ts';
import type { DemoServices } from './services.ts';

/**
 * The public demo (ADR 008): POST /demo/create (/create with the demo key; nothing stored), its log
 * and live stream, the landing page and the tester that lead to it.
 */
declare module '../../kernel/kernel.ts' {
  interface FeatureServices {
    demo: DemoServices;
  }
}

export const demoFeature = feature({
  name: 'demo',
  ports: ['links'],
  services: async (kernel, ports) => (await import('./services.ts')).demoServices(kernel, ports),
  http: async () => (await import('./http.ts')).demoHttp,
});
