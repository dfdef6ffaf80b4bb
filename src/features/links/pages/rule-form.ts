import type { Link } from '../../../core/entities.ts';
import type { LinkRuleFields } from '../../../core/link-fields.ts';
import { MAX_RULES } from '../../../core/targeting.ts';
import { DEFAULT_TIME_ZONE, instantInZone, wallInputOf } from '../../../core/time-zone.ts';

/**
 * The rule fields of the dashboard's forms (docs/api.md §8.2–8.3) as sent, and what they ask of the
 * service. Shapes are checked by the service alone (300 for a bad one); this only maps text to the
 * fields it names. The expiry is a date and time in the workspace's time zone (§18): the form says
 * which, and no script is needed.
 */

/** One targeting row: a device (or empty for any), a country, a language and the URL to go to. */
export interface RuleRow {
  device: string;
  country: string;
  language: string;
  url: string;
}

export interface RuleForm {
  /** As typed, `YYYY-MM-DDTHH:MM` in `zone`; undefined when the form did not send the field. */
  expiresAt: string | undefined;
  /** The workspace's time zone the expiry is entered and shown in; UTC when untold. */
  zone?: string;
  /** As typed; undefined when not sent. */
  maxClicks: string | undefined;
  /** Write-only: read from the form, never shown back. */
  password: string;
  removePassword: boolean;
  /** The rows that name something, in order; undefined when the form sent no rule rows. */
  rules: RuleRow[] | undefined;
}

/** Empty rows a form offers below the rules it has. */
export const SPARE_RULE_ROWS = 3;

function text(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  return typeof value === 'string' ? value : undefined;
}

export function readRuleForm(raw: unknown, zone: string = DEFAULT_TIME_ZONE): RuleForm {
  const body = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const rows: RuleRow[] = [];
  let sent = false;
  for (let i = 0; i < MAX_RULES + SPARE_RULE_ROWS; i++) {
    const url = text(body, `rule_url_${i}`);
    if (url === undefined) continue;
    sent = true;
    const row = {
      device: (text(body, `rule_device_${i}`) ?? '').trim(),
      country: (text(body, `rule_country_${i}`) ?? '').trim(),
      language: (text(body, `rule_language_${i}`) ?? '').trim(),
      url: url.trim(),
    };
    if (row.device || row.country || row.language || row.url) rows.push(row);
  }
  return {
    expiresAt: text(body, 'expires_at')?.trim(),
    maxClicks: text(body, 'max_clicks')?.trim(),
    password: text(body, 'password') ?? '',
    removePassword: text(body, 'remove_password') !== undefined,
    rules: sent ? rows : undefined,
    zone,
  };
}

/**
 * The RFC 3339 instant of a form's date and time in `zone` (core/time-zone.ts says which instant a
 * time the clocks skip or repeat is); anything else is passed on as typed, for the service to
 * refuse (or to take, when it already is RFC 3339).
 */
export function instantOf(value: string, zone: string = DEFAULT_TIME_ZONE): string {
  const at = instantInZone(value, zone);
  return at === undefined ? value : new Date(at).toISOString().replace('.000Z', 'Z');
}

/** A stored instant as a `datetime-local` value in `zone`: minutes, and seconds only when it has some. */
export function inputTimeOf(date: Date, zone: string = DEFAULT_TIME_ZONE): string {
  return wallInputOf(date, zone);
}

/** An empty limit is none; anything else is a number for the service to check (NaN is refused). */
function limitOf(value: string): number | null {
  return value === '' ? null : /^\d+$/.test(value) ? Number(value) : Number.NaN;
}

function rulesOf(rows: readonly RuleRow[]) {
  return rows.map((row) => ({
    if: {
      ...(row.device ? { device: row.device } : {}),
      ...(row.country ? { country: row.country } : {}),
      ...(row.language ? { language: row.language } : {}),
    },
    url: row.url,
  }));
}

/** What a create form asks for: only what it fills in. */
export function ruleDraft(form: RuleForm): LinkRuleFields {
  const draft: LinkRuleFields = {};
  if (form.expiresAt) draft.expiresAt = instantOf(form.expiresAt, form.zone);
  if (form.maxClicks) draft.maxClicks = limitOf(form.maxClicks);
  if (form.password !== '') draft.password = form.password;
  if (form.rules && form.rules.length > 0) draft.rules = rulesOf(form.rules);
  return draft;
}

/** The same rules, compared as the service stores them (country upper case, language lower case). */
function sameRules(link: Link, rows: readonly RuleRow[]): boolean {
  const stored = link.rules.map((rule) => [
    rule.if.device ?? '',
    rule.if.country ?? '',
    rule.if.language ?? '',
    rule.url,
  ]);
  const sent = rows.map((row) => [
    row.device,
    row.country.toUpperCase(),
    row.language.toLowerCase(),
    row.url,
  ]);
  return JSON.stringify(stored) === JSON.stringify(sent);
}

/** What an edit form changes of the link's rules, and only that; a field not sent stays as it is. */
export function ruleChanges(link: Link, form: RuleForm): LinkRuleFields {
  const patch: LinkRuleFields = {};
  if (form.expiresAt !== undefined) {
    // Compared as instants to the second the form shows: a browser may send `12:00` for `12:00:00`.
    const shown = link.expiresAt ? Math.floor(link.expiresAt.getTime() / 1000) * 1000 : null;
    const sent = form.expiresAt === '' ? null : Date.parse(instantOf(form.expiresAt, form.zone));
    if (sent !== shown) patch.expiresAt = form.expiresAt === '' ? null : instantOf(form.expiresAt, form.zone);
  }
  if (form.maxClicks !== undefined && form.maxClicks !== String(link.maxClicks ?? '')) {
    patch.maxClicks = limitOf(form.maxClicks);
  }
  if (form.removePassword) {
    if (link.passwordHash !== null) patch.password = null;
  } else if (form.password !== '') {
    patch.password = form.password;
  }
  if (form.rules !== undefined && !sameRules(link, form.rules)) {
    patch.rules = form.rules.length === 0 ? null : rulesOf(form.rules);
  }
  return patch;
}

/** The form of a stored link: its rules as rows, its expiry in `zone`; the password is never shown. */
export function ruleFormOf(link: Link, zone: string = DEFAULT_TIME_ZONE): RuleForm {
  return {
    expiresAt: link.expiresAt ? inputTimeOf(link.expiresAt, zone) : '',
    zone,
    maxClicks: link.maxClicks === null ? '' : String(link.maxClicks),
    password: '',
    removePassword: false,
    rules: link.rules.map((rule) => ({
      device: rule.if.device ?? '',
      country: rule.if.country ?? '',
      language: rule.if.language ?? '',
      url: rule.url,
    })),
  };
}

/** A form with nothing set, as a new link's. */
export const EMPTY_RULE_FORM: RuleForm = {
  expiresAt: '',
  maxClicks: '',
  password: '',
  removePassword: false,
  rules: [],
};
