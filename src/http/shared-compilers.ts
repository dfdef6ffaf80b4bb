import { createHash } from 'node:crypto';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

/**
 * Compiled schemas kept for the process, by their content. Building an app compiles a response
 * serializer for every route and status (most of the ~0.6 s an app takes to be ready) and a
 * validator for every request part. A server builds one app, and this changes nothing for it; a
 * process that builds many with the same routes (the test suite builds one per test file or case)
 * compiles each schema once. The key is the schema's JSON with what it may refer to, so two
 * different schemas never share a compiled function.
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

type SerializerFactory = ReturnType<typeof SerializerSelector>;

/** Fastify's serializer factory (fast-json-stringify), its compiled serializers shared by content. */
export function sharedSerializers(): SerializerFactory {
  const factory = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = factory(externalSchemas, options);
    const context = `serializer:${digest(JSON.stringify([externalSchemas, options]) ?? '')}`;
    return (route) => compiledOnce(context, route.schema, () => compile(route));
  };
}
