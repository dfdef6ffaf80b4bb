import { abuseFeature } from './features/abuse/index.ts';
import { adminFeature } from './features/admin/index.ts';
import { analyticsFeature } from './features/analytics/index.ts';
import { billingFeature } from './features/billing/index.ts';
import { compatFeature } from './features/compat/index.ts';
import { conversionsFeature } from './features/conversions/index.ts';
import { demoFeature } from './features/demo/index.ts';
import { domainsFeature } from './features/domains/index.ts';
import { groupsFeature } from './features/groups/index.ts';
import { healthFeature } from './features/health/index.ts';
import { importsFeature } from './features/imports/index.ts';
import { linksFeature } from './features/links/index.ts';
import { opsFeature } from './features/ops/index.ts';
import { redirectFeature } from './features/redirect/index.ts';
import { webhooksFeature } from './features/webhooks/index.ts';
import { workspacesFeature } from './features/workspaces/index.ts';
import type { Feature } from './kernel/feature.ts';

/**
 * The registry: every feature of Snip, named once (docs/adr/034). The server and the command line
 * both walk it; adding a feature is its folder, a line here, and its migration. The order is the
 * order each kind of surface is registered in (the schemas of /openapi.json follow it); services
 * are built in the order they ask for each other, whatever their place here.
 */
export const FEATURES: readonly Feature<unknown>[] = [
  opsFeature,
  linksFeature,
  groupsFeature,
  workspacesFeature,
  domainsFeature,
  abuseFeature,
  webhooksFeature,
  analyticsFeature,
  conversionsFeature,
  healthFeature,
  redirectFeature,
  demoFeature,
  importsFeature,
  compatFeature,
  billingFeature,
  adminFeature,
] as readonly Feature<unknown>[];
