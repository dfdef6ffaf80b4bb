import { feature } from '../../kernel/feature.ts';

/** The operator console (docs/api.md §13): its pages, and each workspace's audit log page. */
export const adminFeature = feature({
  name: 'admin',
  ports: ['abuse', 'accounts', 'console', 'health', 'workspaces'],
  http: async () => (await import('./http.ts')).adminHttp,
});
