import { Ajv } from 'ajv';
import formats from 'ajv-formats';

// A CommonJS module whose types name its function `default`; at run time the module is the function.
const addFormats = formats as unknown as typeof formats.default;

import type { FastifyInstance } from 'fastify';
import { compiledOnce } from './shared-compilers.ts';

/**
 * Validation of a JSON API's requests: the body as strictly as everywhere (no coercion, no removal),
 * but a query string or path parameter read as the type its schema names ("50" is the integer 50,
 * "true" the boolean), as a client writing `?limit=50` means it.
 */
export function validateJsonApi(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const read = httpPart === 'querystring' || httpPart === 'params' ? 'coercing' : 'strict';
    return compiledOnce(`api-${read}`, schema, () => validators[read].compile(schema));
  });
}

const options = { removeAdditional: false, useDefaults: true, allErrors: false } as const;

/** One pair for the process: compiled validators are shared by content (shared-compilers.ts). */
const validators = {
  strict: addFormats(new Ajv({ ...options, coerceTypes: false })),
  coercing: addFormats(new Ajv({ ...options, coerceTypes: true })),
};
