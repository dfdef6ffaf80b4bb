import { Ajv } from 'ajv';
import formats from 'ajv-formats';

// A CommonJS module whose types name its function `default`; at run time the module is the function.
const addFormats = formats as unknown as typeof formats.default;

import type { FastifyInstance } from 'fastify';

/**
 * Validation of a JSON API's requests: the body as strictly as everywhere (no coercion, no removal),
 * but a query string or path parameter read as the type its schema names ("50" is the integer 50,
 * "true" the boolean), as a client writing `?limit=50` means it.
 */
export function validateJsonApi(app: FastifyInstance): void {
  const strict = new Ajv({
    coerceTypes: false,
    removeAdditional: false,
    useDefaults: true,
    allErrors: false,
  });
  const coercing = new Ajv({
    coerceTypes: true,
    removeAdditional: false,
    useDefaults: true,
    allErrors: false,
  });
  for (const ajv of [strict, coercing]) {
    addFormats(ajv);
  }
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'querystring' || httpPart === 'params' ? coercing.compile(schema) : strict.compile(schema),
  );
}
