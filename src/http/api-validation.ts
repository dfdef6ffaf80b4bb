import { Ajv, type ValidateFunction } from 'ajv';
import formats from 'ajv-formats';

// A CommonJS module whose types name its function `default`; at run time the module is the function.
const addFormats = formats as unknown as typeof formats.default;

import type { FastifyInstance } from 'fastify';
import { compiledOnce, lazyValidator } from './shared-compilers.ts';

/**
 * Validation of a JSON API's requests: the body as strictly as everywhere (no coercion, no removal),
 * but a query string or path parameter read as the type its schema names ("50" is the integer 50,
 * "true" the boolean), as a client writing `?limit=50` means it.
 */
export function validateJsonApi(app: FastifyInstance): void {
  // Each compiled by the route's first request (shared-compilers.ts).
  app.setValidatorCompiler(({ schema, httpPart }) => {
    if (httpPart !== 'querystring' && httpPart !== 'params') {
      return lazyValidator(() => compiledOnce('api-strict', schema, () => validators.strict.compile(schema)));
    }
    return lazyValidator(() =>
      compiledOnce('api-coercing', schema, () =>
        decimalIntegers(schema, validators.coercing.compile(schema)),
      ),
    );
  });
}

/**
 * An integer in a query or path is written the way people write one: decimal digits after an
 * optional minus, no leading zero (`010` could be read as octal), no plus, space, point, exponent
 * or `0x`. Coercion alone would read `0x10`, `1e1`, ` 10`, `+10` and `10.0` as numbers.
 */
const DECIMAL_INTEGER = /^-?(0|[1-9][0-9]*)$/;

type PropertySchema = { type?: unknown };

/** A property that is an integer and nothing else (null aside); a union with text is left to Ajv. */
function isIntegerSchema(schema: PropertySchema | undefined): boolean {
  const types = Array.isArray(schema?.type) ? schema.type : [schema?.type];
  return types.includes('integer') && types.every((type) => type === 'integer' || type === 'null');
}

const writtenAsDecimal = (value: unknown): boolean =>
  Array.isArray(value)
    ? value.every(writtenAsDecimal)
    : typeof value !== 'string' || DECIMAL_INTEGER.test(value);

/** The validator, refusing first an integer property the query or path writes some other way. */
function decimalIntegers(schema: unknown, validate: ValidateFunction): ValidateFunction {
  const properties = (schema as { properties?: Record<string, PropertySchema> }).properties ?? {};
  const integers = Object.keys(properties).filter((name) => isIntegerSchema(properties[name]));
  if (integers.length === 0) return validate;
  const checked = ((data: Record<string, unknown> | null, context?: Parameters<ValidateFunction>[1]) => {
    const refused = integers.find((name) => !writtenAsDecimal(data?.[name]));
    if (refused !== undefined) {
      checked.errors = [
        {
          instancePath: `/${refused}`,
          schemaPath: `#/properties/${refused}/type`,
          keyword: 'type',
          params: { type: 'integer' },
          message: 'must be an integer written in decimal digits',
        },
      ];
      return false;
    }
    const valid = validate(data, context);
    checked.errors = validate.errors;
    return valid;
  }) as ValidateFunction;
  // fastify hands Ajv's validators the request, so coercion may replace the part itself.
  Object.assign(checked, { schemaEnv: validate.schemaEnv, schema: validate.schema });
  return checked;
}

const options = { removeAdditional: false, useDefaults: true, allErrors: false } as const;

/** One pair for the process: compiled validators are shared by content (shared-compilers.ts). */
const validators = {
  strict: addFormats(new Ajv({ ...options, coerceTypes: false })),
  coercing: addFormats(new Ajv({ ...options, coerceTypes: true })),
};
