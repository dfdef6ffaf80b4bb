/** The operator console (docs/api.md §13): its pages, and each workspace's audit log page. */
export type { AdminPageOptions } from './admin-deps.ts';
export { adminPages } from './admin-routes.ts';
