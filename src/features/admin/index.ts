import type { Feature } from '../../kernel/feature.ts';

/** The operator console (docs/api.md §13): its pages, and each workspace's audit log page. */
export const adminFeature: Feature = {
  name: 'admin',
  http: async () => (await import('./http.ts')).adminHttp,
};
