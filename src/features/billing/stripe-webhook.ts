import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { UnavailableError } from '../../core/errors.ts';
import { type PaymentEvent, PaymentEventRefused, type PaymentGateway } from '../../core/ports/payments.ts';
import { type EventOutcome, FreePlanMissing } from './billing-events.ts';

/**
 * POST /webhooks/stripe (docs/api.md §17): no session, no CSRF token, no key — the signature over
 * the raw body is the only proof, so the body is kept as bytes (in this scope only) and verified
 * before anything is read. A bad, missing or stale signature is a 400 and changes nothing; an
 * event Snip does not act on is a 200 that says why; a store that cannot answer a 503, so that
 * Stripe sends the event again. Its answers are JSON, never a page.
 */

export interface StripeWebhookOptions {
  payments: PaymentGateway | undefined;
  handle: (event: PaymentEvent) => Promise<EventOutcome>;
}

/** Stripe's events stay well under its 1 MiB; a little room over it, never a 500 past it (a 413). */
const BODY_LIMIT = 1024 * 1024 + 64 * 1024;

/** Seconds Stripe is asked to wait before sending an event again when the store cannot answer. */
const RETRY_AFTER_SECONDS = 30;

const ERROR = { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] } as const;
const RESPONSE = {
  200: {
    type: 'object',
    properties: {
      received: { type: 'boolean' },
      result: { type: 'string', enum: ['applied', 'duplicate', 'stale'] },
      ignored: { type: 'string' },
    },
    required: ['received'],
  },
  '4xx': ERROR,
  '5xx': ERROR,
} as const;

/** The raw bodies of this scope's requests, kept out of `request.body` so nothing walks their bytes. */
const rawBodies = new WeakMap<FastifyRequest, Buffer>();

function unavailable(reply: FastifyReply, error: string) {
  return reply.code(503).header('retry-after', String(RETRY_AFTER_SECONDS)).send({ error });
}

function answerErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ error: status === 413 ? 'body-too-large' : 'bad-request' });
    }
    // A fault of the store or of ours: Stripe keeps the event and sends it again later.
    if (error instanceof UnavailableError)
      request.log.warn({ err: error }, 'stripe webhook: store unavailable');
    else request.log.error({ err: error }, 'stripe webhook failed');
    return unavailable(reply, 'unavailable');
  });
}

export async function stripeWebhook(app: FastifyInstance, options: StripeWebhookOptions): Promise<void> {
  const { payments, handle } = options;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (request, body, done) => {
    rawBodies.set(request, body as Buffer);
    done(null, undefined);
  });
  answerErrors(app);

  app.post(
    '/webhooks/stripe',
    { bodyLimit: BODY_LIMIT, schema: { hide: true, response: RESPONSE } },
    async (request, reply) => {
      if (!payments) return reply.code(404).send({ error: 'stripe-not-configured' });
      const header = request.headers['stripe-signature'];
      let event: PaymentEvent;
      try {
        const signature = typeof header === 'string' ? header : undefined;
        event = payments.readEvent(rawBodies.get(request) ?? Buffer.alloc(0), signature);
      } catch (error) {
        if (!(error instanceof PaymentEventRefused)) throw error;
        request.log.info({ reason: error.message }, 'stripe webhook refused');
        return reply.code(400).send({ error: 'signature-invalid' });
      }
      try {
        return { received: true, ...(await handle(event)) };
      } catch (error) {
        if (!(error instanceof FreePlanMissing)) throw error;
        request.log.error({ err: error }, 'stripe webhook: the free plan is missing');
        return unavailable(reply, 'plan-missing');
      }
    },
  );
}
