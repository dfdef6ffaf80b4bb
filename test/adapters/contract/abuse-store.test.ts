/**
 * Runs the abuse contract (abuse-contract.ts) on SQLite always — a new file per case — and on
 * PostgreSQL when TEST_DATABASE_URL is set — a new schema per case, dropped afterwards.
 */
import { runAbuseContract } from './abuse-contract.ts';
import { onBothStores } from './store-harness.ts';

onBothStores('snip-abuse-', runAbuseContract);
