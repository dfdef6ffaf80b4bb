import type { FastifyInstance } from 'fastify';
import type { CreateLinkService } from '../create-link.ts';
import { createRoute } from './create-route.ts';
import { type EnvelopeOptions, envelopeRenderer } from './envelope.ts';

/** POST /create (docs/api.md §2): the create service behind account keys, answered in the envelope. */
export interface CreateEndpointOptions {
  live: CreateLinkService;
  /** How the envelope is written (BASE_URL, TIMESTAMP_TZ, HTTP_STATUS_MODE). */
  envelope: Omit<EnvelopeOptions, 'onOutcome'>;
  /** Told of every answer's `error` ("" on success), e.g. for metrics. */
  onOutcome: (error: string) => void;
}

export async function createEndpoint(app: FastifyInstance, options: CreateEndpointOptions): Promise<void> {
  await app.register(createRoute, {
    path: '/create',
    createLink: options.live.withKey,
    envelope: envelopeRenderer({ ...options.envelope, onOutcome: options.onOutcome }),
    operation: {
      operationId: 'createShortLink',
      summary: 'Create a short link',
      tag: 'Create',
      limitDescription: "Requests the account's keys may make in this clock hour (UTC), all together.",
    },
  });
}
