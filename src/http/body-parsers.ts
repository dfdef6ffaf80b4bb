import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';

export const MAX_BODY_BYTES = 64 * 1024;

/** JSON (built in), urlencoded and multipart forms; nothing else is read (text/plain becomes 300). */
export async function registerBodyParsers(app: FastifyInstance): Promise<void> {
  app.removeContentTypeParser('text/plain');
  await app.register(formbody, { bodyLimit: MAX_BODY_BYTES });
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: {
      fieldNameSize: 100,
      fieldSize: MAX_BODY_BYTES,
      fields: 20,
      fileSize: MAX_BODY_BYTES,
      files: 3,
      parts: 25,
    },
  });
}
