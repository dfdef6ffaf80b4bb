import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Refusal } from '../core/errors.ts';
import type { KeyAuthenticator } from '../core/ports/key-auth.ts';
import type { Scope } from '../core/scopes.ts';
import { requireApiKeys } from './api-auth.ts';
import { answerApiErrors } from './api-errors.ts';
import { validateJsonApi } from './api-validation.ts';
import { type OperationDoc, operationDoc } from './operation-doc.ts';

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

/** What a route of the management API is made of besides its words: its schemas and answers. */
export interface RouteParts {
  params?: TSchema;
  body?: TSchema;
  ok: OperationDoc['ok'];
  refusals?: OperationDoc['refusals'];
}

/** What a route of the management API says of itself in /openapi.json. */
export interface RouteWords {
  tag: OperationDoc['tag'];
  /** undefined: any live key of the workspace. */
  scope: Scope | undefined;
  operationId: string;
  summary: string;
  description: string;
}

/** A route's options: the scope it needs, JSON bodies only, its schemas and its /openapi.json entry. */
export function apiRoute(words: RouteWords, parts: RouteParts) {
  const { params, body, ok, refusals } = parts;
  return {
    config: { scope: words.scope },
    ...(body ? { preValidation: jsonOnly } : {}),
    schema: {
      ...(params ? { params } : {}),
      ...(body ? { body } : {}),
      ...operationDoc({ ...words, ok, refusals }),
    },
  };
}
