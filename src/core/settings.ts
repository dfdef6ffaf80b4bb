import type {
  ArrayOptions,
  IntegerOptions,
  Kind,
  OptionalKind,
  SchemaOptions,
  Static,
  StringOptions,
  TArray,
  TBoolean,
  TInteger,
  TLiteral,
  TLiteralValue,
  TObject,
  TOptional,
  TProperties,
  TSchema,
  TString,
  TUnion,
} from '@sinclair/typebox';

/**
 * Reading settings from the environment (docs/api.md §6) through a schema (config-schema.ts), and
 * the groups of settings that live beside their features' own words.
 */

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export type Env = Readonly<Record<string, string | undefined>>;

/** Checks of a string schema's `format`, by name. */
export type Formats = Readonly<Record<string, (text: string) => boolean>>;

// TypeBox's own marks (registered symbols): the schemas built below are the objects its Type makes.
const KIND: typeof Kind = Symbol.for('TypeBox.Kind') as typeof Kind;
const OPTIONAL: typeof OptionalKind = Symbol.for('TypeBox.Optional') as typeof OptionalKind;

/**
 * The part of TypeBox's Type the settings use, making the same schemas. Only TypeBox's types are
 * imported: its code is ~270 modules, some 70 ms that every command, `snip --help` included, would
 * spend loading it before reading the environment (test/terminal/lazy-commands.test.ts).
 */
export const Type = {
  Integer: (options: IntegerOptions) => ({ ...options, [KIND]: 'Integer', type: 'integer' }) as TInteger,
  Boolean: (options: SchemaOptions) => ({ ...options, [KIND]: 'Boolean', type: 'boolean' }) as TBoolean,
  String: (options: StringOptions = {}) => ({ ...options, [KIND]: 'String', type: 'string' }) as TString,
  Literal: <Value extends TLiteralValue>(value: Value) =>
    ({ [KIND]: 'Literal', const: value, type: typeof value }) as unknown as TLiteral<Value>,
  Union: <Members extends TSchema[]>(anyOf: [...Members], options: SchemaOptions) =>
    ({ ...options, [KIND]: 'Union', anyOf }) as unknown as TUnion<Members>,
  Array: <Item extends TSchema>(items: Item, options: ArrayOptions) =>
    ({ ...options, [KIND]: 'Array', type: 'array', items }) as unknown as TArray<Item>,
  Optional: <Inner extends TSchema>(schema: Inner) =>
    ({ ...schema, [OPTIONAL]: 'Optional' }) as TOptional<Inner>,
  Object: <Properties extends TProperties>(properties: Properties) => {
    const required = Object.keys(properties).filter((name) => properties[name]?.[OPTIONAL] === undefined);
    return { [KIND]: 'Object', type: 'object', required, properties } as unknown as TObject<Properties>;
  },
};

const BOOLEAN_WORDS = new Map([
  ...['true', '1', 'yes', 'on'].map((word) => [word, true] as const),
  ...['false', '0', 'no', 'off'].map((word) => [word, false] as const),
]);

/**
 * A variable's text as the value its schema asks for. Text that does not convert is left as it is,
 * for the check to refuse: only plain digits are a number ("1e3", "+5" and "-1" are not).
 */
function fromText(schema: TSchema, text: string, formats: Formats): unknown {
  switch (schema[KIND]) {
    case 'Integer':
      return /^\d+$/.test(text) ? Number(text) : text;
    case 'Boolean':
      return BOOLEAN_WORDS.get(text.toLowerCase()) ?? text;
    case 'Literal': {
      const spelt = typeof schema.const === 'boolean' ? text.toLowerCase() : text;
      return spelt === String(schema.const) ? schema.const : text;
    }
    case 'Union':
      for (const member of schema.anyOf as TSchema[]) {
        const value = fromText(member, text, formats);
        if (fits(member, value, formats)) return value;
      }
      return text;
    case 'Array':
      return text
        .split(new RegExp(schema.separator ?? ','))
        .map((part) => part.trim())
        .filter(Boolean)
        .map((part) => fromText(schema.items, part, formats));
    default:
      return text;
  }
}

/** Whether the value is one the schema accepts, as TypeBox's Value.Check would judge it. */
function fits(schema: TSchema, value: unknown, formats: Formats): boolean {
  switch (schema[KIND]) {
    case 'Integer':
      return (
        typeof value === 'number' &&
        Number.isInteger(value) &&
        value >= schema.minimum &&
        value <= schema.maximum
      );
    case 'Boolean':
      return typeof value === 'boolean';
    case 'Literal':
      return value === schema.const;
    case 'Union':
      return (schema.anyOf as TSchema[]).some((member) => fits(member, value, formats));
    case 'String':
      return (
        typeof value === 'string' &&
        (schema.pattern === undefined || new RegExp(schema.pattern).test(value)) &&
        (schema.format === undefined || formats[schema.format]?.(value) === true)
      );
    case 'Array':
      return Array.isArray(value) && value.every((item) => fits(schema.items, item, formats));
    default:
      return false;
  }
}

/** What a variable must be, in the words of an error. */
function expectation(schema: TSchema): string {
  if (typeof schema.expected === 'string') return schema.expected;
  if (schema[KIND] === 'Integer') return `an integer from ${schema.minimum} to ${schema.maximum}`;
  if (schema[KIND] === 'Boolean') return 'true or false';
  if (schema[KIND] === 'Union')
    return `one of ${schema.anyOf.map((member: TSchema) => member.const).join(', ')}`;
  return `valid (${schema.description})`;
}

/**
 * The variables the schema names, read from env: trimmed (blank is unset), converted, given their
 * defaults and checked. The first one that fails is a ConfigError naming it, and for a list the item.
 */
export function readEnv<Schema extends TObject>(schema: Schema, env: Env, formats: Formats): Static<Schema> {
  const settings: Record<string, unknown> = {};
  for (const [name, variable] of Object.entries(schema.properties)) {
    const text = env[name]?.trim();
    const value = text ? fromText(variable, text, formats) : structuredClone(variable.default);
    if (value === undefined) {
      if (schema.required?.includes(name)) throw new ConfigError(`${name} must be set`);
      continue;
    }
    if (!fits(variable, value, formats)) {
      const item = Array.isArray(value) ? value.find((part) => !fits(variable.items, part, formats)) : text;
      throw new ConfigError(`${name} must be ${expectation(variable)}, got "${item}"`);
    }
    settings[name] = value;
  }
  return settings as Static<Schema>;
}

/** BLOCKLIST_URLS, BLOCKLIST_REFRESH_HOURS, REPORT_EMAIL (docs/api.md §13). */
export interface AbuseSettings {
  blocklistUrls: readonly string[];
  blocklistRefreshHours: number;
  reportEmail: string | undefined;
}

/** WEBHOOK_RETRY_BASE_MS, WEBHOOK_OUTBOX_MAX, EVENTS_AMQP_URL (docs/api.md §14). */
export interface WebhookSettings {
  /** The first retry's delay; each next one doubles, with jitter. */
  retryBaseMs: number;
  /** Deliveries the outbox holds at most before link.clicked events are dropped (counted). */
  outboxMax: number;
  /** The operator's event stream: every event also goes to this RabbitMQ. */
  amqpUrl: string | undefined;
}

/** Payments (docs/api.md §17): none by default (upgrades are the operator's), or Stripe. */
export interface BillingSettings {
  /** Where an owner asks the operator for another plan without a payment provider; else a mailto of MAIL_FROM. */
  upgradeUrl: string | undefined;
  stripe: { secretKey: string; webhookSecret: string; apiBase: URL } | undefined;
}
