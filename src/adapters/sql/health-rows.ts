import {
  type HealthCode,
  type HealthState,
  type LinkHealth,
  UNKNOWN_HEALTH,
} from '../../core/link-health.ts';

/** A link's health as stored (migration 030): the latest check, and the last change of state. */

const dateOf = (value: unknown) => (value === null || value === undefined ? null : new Date(Number(value)));
const numberOf = (value: unknown) => (value === null || value === undefined ? null : Number(value));
/** '' is stored for a check whose targets passed; null for none. */
const codeOf = (value: unknown) => (typeof value === 'string' && value !== '' ? (value as HealthCode) : null);

/** A stored row's columns by name (rows.ts's Row, not imported: rows.ts imports this file). */
type Row = Record<string, unknown>;

export function healthOf(row: Row): LinkHealth {
  const state = row.health_state as HealthState | undefined;
  // A row read without the columns (or before migration 030) is unknown.
  if (state === undefined || state === null) return UNKNOWN_HEALTH;
  const since = dateOf(row.health_since);
  return {
    state,
    checkedAt: dateOf(row.health_checked_at),
    code: codeOf(row.health_code),
    status: numberOf(row.health_status),
    failures: Number(row.health_failures ?? 0),
    since,
    cause:
      since === null
        ? null
        : { code: codeOf(row.health_cause_code), status: numberOf(row.health_cause_status) },
  };
}
