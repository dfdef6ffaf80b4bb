import { Type } from '@sinclair/typebox';
import {
  AMOUNT_MAX,
  CLICK_ID_MAX,
  CUSTOMER_ID_MAX,
  EVENT_NAME_MAX,
  INVOICE_ID_MAX,
} from '../../../core/conversions.ts';

/** POST /api/v1/track/lead and /track/sale (docs/api.md §20): what the merchant sends, what it gets. */

const clickId = Type.String({
  minLength: 1,
  maxLength: CLICK_ID_MAX,
  pattern: '^[A-Za-z0-9_-]+$',
  description: 'The `snip_id` the redirect appended to the target, as the merchant kept it.',
  examples: ['q3T0b1nXr5c8Vd2LmZkAaB9e'],
});
const customerId = Type.String({
  minLength: 1,
  maxLength: CUSTOMER_ID_MAX,
  description:
    "The merchant's own id of the customer (never an email address, please). Snip keeps only its HMAC: `customer_key`.",
  examples: ['cus_8731'],
});
const eventName = Type.String({
  minLength: 1,
  maxLength: EVENT_NAME_MAX,
  description: 'What happened, in the merchant’s words.',
  examples: ['Sign up'],
});
const customerKey = Type.String({
  pattern: '^[0-9a-f]{64}$',
  description: 'HMAC-SHA-256 of customer_id under the workspace’s own secret, in hex: all Snip keeps of it.',
  examples: ['5f2b6a3c1d0e4f8a9b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a'],
});
const linkRef = Type.Object(
  {
    code: Type.String({ examples: ['spring'] }),
    domain: Type.String({ description: 'The host of the short URL.', examples: ['snip.example'] }),
  },
  { additionalProperties: false, description: 'The link the lead or sale is attributed to.' },
);

export const LeadBody = Type.Object(
  { click_id: clickId, event_name: eventName, customer_id: customerId },
  {
    additionalProperties: false,
    examples: [{ click_id: 'q3T0b1nXr5c8Vd2LmZkAaB9e', event_name: 'Sign up', customer_id: 'cus_8731' }],
  },
);

export const LeadSchema = Type.Object(
  { click_id: Type.String(), link: linkRef, customer_key: customerKey, event_name: Type.String() },
  {
    $id: 'Lead',
    additionalProperties: false,
    examples: [
      {
        click_id: 'q3T0b1nXr5c8Vd2LmZkAaB9e',
        link: { code: 'spring', domain: 'snip.example' },
        customer_key: '5f2b6a3c1d0e4f8a9b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a',
        event_name: 'Sign up',
      },
    ],
  },
);

const amount = Type.Integer({
  minimum: 0,
  maximum: AMOUNT_MAX,
  description: 'In the currency’s minor units (cents for EUR; yen for JPY).',
  examples: [4900],
});
const currency = Type.String({
  pattern: '^[A-Za-z]{3}$',
  description: 'ISO 4217, three letters; answered in capitals.',
  examples: ['EUR'],
});

export const SaleBody = Type.Object(
  {
    customer_id: Type.Optional(customerId),
    click_id: Type.Optional(clickId),
    amount,
    currency,
    event_name: Type.Optional({ ...eventName, description: 'What was sold; `Purchase` by default.' }),
    invoice_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: INVOICE_ID_MAX,
        description: 'The same invoice again is answered 200 with the first answer and counted once.',
        examples: ['in_1PqR2s'],
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'customer_id or click_id, or both: the customer’s first lead wins, else the click.',
    examples: [{ customer_id: 'cus_8731', amount: 4900, currency: 'EUR', invoice_id: 'in_1PqR2s' }],
  },
);

export const SaleSchema = Type.Object(
  {
    link: linkRef,
    amount,
    currency: Type.String({ pattern: '^[A-Z]{3}$' }),
    customer_key: Type.Union([customerKey, Type.Null()], {
      description: 'null for a sale reported with a click id alone.',
    }),
  },
  {
    $id: 'Sale',
    additionalProperties: false,
    examples: [
      {
        link: { code: 'spring', domain: 'snip.example' },
        amount: 4900,
        currency: 'EUR',
        customer_key: '5f2b6a3c1d0e4f8a9b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a',
      },
    ],
  },
);

export const TRACK_SCHEMAS = [LeadSchema, SaleSchema];
