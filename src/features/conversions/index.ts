import { feature } from '../../kernel/feature.ts';
import type { ConversionServices } from './services.ts';

/**
 * Conversions (docs/api.md §20): the click ids a tracked link's redirect hands out, the leads and
 * sales merchants report against them (/api/v1/track/*), and the merchant's script, /snip.js.
 */
declare module '../../kernel/kernel.ts' {
  interface FeatureServices {
    conversions: ConversionServices;
  }
}

export const conversionsFeature = feature({
  name: 'conversions',
  ports: ['conversions', 'secrets'],
  services: async (kernel, ports) => (await import('./services.ts')).conversionServices(kernel, ports),
  http: async () => (await import('./http.ts')).conversionHttp,
});
