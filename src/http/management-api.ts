import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Refusal } from '../core/errors.ts';
import type { KeyAuthenticator } from '../core/ports/key-auth.ts';
import { requireApiKeys } from './api-auth.ts';
import { answerApiErrors } from './api-errors.ts';
import { validateJsonApi } from './api-validation.ts';

/**
 * The management API's scope, /api/v1 (docs/api.md §7): every request judged by its key first,
 * queries read as their schemas' types, refusals as problem documents. Each feature registers its
 * resources inside it.
 */
export function managementApi(v1: FastifyInstance, keys: KeyAuthenticator): void {
  answerApiErrors(v1);
  validateJsonApi(v1);
  requireApiKeys(v1, keys);
}

/** Bodies are JSON; a form or anything else is refused before it is read. */
export async function jsonOnly(request: FastifyRequest): Promise<void> {
  const type = (request.headers['content-type'] ?? '').toLowerCase();
  if (!type.startsWith('application/json')) {
    throw new Refusal('300', 'Send the body as application/json.');
  }
}
