/** Billing on either dialect (core/ports/billing-store.ts): Stripe customers, subscriptions and events once each. */
import type {
  BillingChange,
  BillingEvent,
  BillingEventResult,
  BillingStore,
} from '../../core/ports/billing-store.ts';
import { mapFirst, type Row } from './rows.ts';
import { lockWorkspace, type Param, q, rowsOf, type Script, type ScriptRunner } from './script.ts';

function* changeWorkspace(change: BillingChange, order: number): Script<void> {
  const sets = ['billing_event_order = ?'];
  const values: Param[] = [order];
  const set = (column: string, value: Param | undefined) => {
    if (value === undefined) return;
    sets.push(`${column} = ?`);
    values.push(value);
  };
  set('plan_id', change.planId);
  set('stripe_customer_id', change.customerId);
  set('stripe_subscription_id', change.subscriptionId);
  set('billing_status', change.status);
  yield q(`UPDATE workspaces SET ${sets.join(', ')} WHERE id = ?`, ...values, change.workspaceId);
}

function* applyEvent(
  event: BillingEvent,
  change: BillingChange | undefined,
  now: number,
): Script<BillingEventResult> {
  if (change) yield lockWorkspace(change.workspaceId);
  const recorded = yield q(
    'INSERT INTO stripe_events (id, type, received_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING RETURNING id',
    event.id,
    event.type,
    now,
  );
  if (recorded.length === 0) return 'duplicate';
  if (!change) return 'applied';
  const [row] = yield q('SELECT billing_event_order FROM workspaces WHERE id = ?', change.workspaceId);
  if (!row) return 'stale';
  const last = row.billing_event_order;
  if (last !== null && last !== undefined && Number(last) > event.order) return 'stale';
  yield* changeWorkspace(change, event.order);
  return 'applied';
}

const toBilling = (row: Row) => ({
  customerId: (row.stripe_customer_id as string | null) ?? null,
  subscriptionId: (row.stripe_subscription_id as string | null) ?? null,
  status: (row.billing_status as string | null) ?? null,
});

export function billingStore(runner: ScriptRunner): BillingStore {
  return {
    async billingOf(workspaceId) {
      const rows = await runner.read(
        rowsOf(
          'SELECT stripe_customer_id, stripe_subscription_id, billing_status FROM workspaces WHERE id = ?',
          workspaceId,
        ),
      );
      return mapFirst(rows, toBilling);
    },
    async workspaceOfCustomer(customerId) {
      const rows = await runner.read(
        rowsOf('SELECT id FROM workspaces WHERE stripe_customer_id = ?', customerId),
      );
      return mapFirst(rows, (row) => Number(row.id));
    },
    async setStripeCustomer(workspaceId, customerId) {
      await runner.write(
        rowsOf('UPDATE workspaces SET stripe_customer_id = ? WHERE id = ?', customerId, workspaceId),
      );
    },
    applyBillingEvent: (event, change, now) => runner.write(applyEvent(event, change, now)),
  };
}
