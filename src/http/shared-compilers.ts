import { createHash } from 'node:crypto';
import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { ValidateFunction } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';

/**
 * Compiled schemas kept for the process, by their content, and compiled only when first used.
 * Compiling a response serializer for every route and status and a validator for every request part
 * was most of a server's start (~0.9 s of CPU of ~1.8 s, docs/adr/053) and ~10 MB of heap for
 * routes most servers never answer. A route's schemas are now compiled by its first request (a few
 * milliseconds, once); the redirect has none. A process that builds many apps with the same routes
 * (the test suite builds one per test file or case) compiles each schema once. The key is the
 * schema's JSON with what it may refer to, so two different schemas never share a compiled function.
 */

const digest = (text: string) => createHash('sha256').update(text).digest('base64url');

const compiled = new Map<string, unknown>();

/** `compile(schema)` once per distinct `context` and schema content in this process. */
export function compiledOnce<T>(context: string, schema: unknown, compile: () => T): T {
  const key = `${context}:${digest(JSON.stringify(schema) ?? 'undefined')}`;
  let found = compiled.get(key) as T | undefined;
  if (found === undefined) {
    found = compile();
    compiled.set(key, found);
  }
  return found;
}

/**
 * A validator compiled by its first call. It says it takes Ajv's context (fastify then passes the
 * request as the parent, so that coercion may replace a part) and hands it on only to a compiled
 * validator that takes it; its `errors` are those of the last call, as fastify reads them.
 */
export function lazyValidator(compile: () => ValidateFunction): ValidateFunction {
  let validate: ValidateFunction | undefined;
  const lazy = ((data: unknown, context?: Parameters<ValidateFunction>[1]) => {
    validate ??= compile();
    const result = validate.schemaEnv && context ? validate(data, context) : validate(data);
    lazy.errors = validate.errors;
    return result;
  }) as ValidateFunction;
  // Read by fastify before the first call, when nothing is compiled yet.
  Object.assign(lazy, { schemaEnv: true });
  return lazy;
}

/**
 * A request's header names arrive in lower case: a headers schema's names are written so too, as
 * fastify does for its own compiler (given another, it leaves the schema as it is).
 */
function lowerCaseHeaders(schema: unknown): unknown {
  const { properties, required } = schema as { properties?: Record<string, unknown>; required?: unknown };
  if (typeof schema !== 'object' || schema === null || properties === undefined) return schema;
  return {
    ...schema,
    properties: Object.fromEntries(Object.entries(properties).map(([name, s]) => [name.toLowerCase(), s])),
    ...(Array.isArray(required) ? { required: required.map((name) => String(name).toLowerCase()) } : {}),
  };
}

type ValidatorFactory = ReturnType<typeof AjvCompiler>;

/** Fastify's validator factory (Ajv), each validator compiled by its first request. */
export function lazyValidators(): ValidatorFactory {
  const factory = AjvCompiler();
  return (externalSchemas, options) => {
    const compile = factory(externalSchemas, options) as unknown as (route: object) => ValidateFunction;
    return ((route: Parameters<FastifySchemaCompiler<unknown>>[0]) => {
      const schema = route.httpPart === 'headers' ? lowerCaseHeaders(route.schema) : route.schema;
      return lazyValidator(() => compile({ ...route, schema }));
    }) as ReturnType<ValidatorFactory>;
  };
}

type SerializerFactory = ReturnType<typeof SerializerSelector>;

/** Fastify's serializer factory (fast-json-stringify), compiled by first use and shared by content. */
export function sharedSerializers(): SerializerFactory {
  const factory = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = factory(externalSchemas, options);
    const context = `serializer:${digest(JSON.stringify([externalSchemas, options]) ?? '')}`;
    return (route) => {
      let serialize: ((data: unknown) => string) | undefined;
      return (data: unknown) => {
        serialize ??= compiledOnce(context, route.schema, () => compile(route));
        return serialize(data);
      };
    };
  };
}
