import type { FastifyInstance, FastifyReply } from 'fastify';
import { sendProblem } from './problem.ts';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;

/** The methods a route answers: HEAD comes with GET, as fastify registers it. */
function withHead(allowed: readonly string[]): string[] {
  return allowed.includes('GET') && !allowed.includes('HEAD') ? [...allowed, 'HEAD'] : [...allowed];
}

/**
 * Every other method on an API path answers 405 with Allow (docs/api.md §10), before its body is
 * read, so a wrong method is never mistaken for a malformed request. `answer` shapes the body: a
 * problem by default, the envelope on /create.
 */
export function refuseOtherMethods(
  app: FastifyInstance,
  url: string,
  allowed: readonly string[],
  answer: (reply: FastifyReply) => FastifyReply = (reply) =>
    sendProblem(reply, {
      status: 405,
      title: 'Method Not Allowed',
      detail: `${url} answers ${allowed.join(', ')}.`,
      code: '405',
    }),
): void {
  const allow = withHead(allowed);
  const others = METHODS.filter((method) => !allow.includes(method));
  app.route({
    method: others,
    url,
    schema: { hide: true },
    onRequest: async (_request, reply) => answer(reply.header('allow', allow.join(', '))),
    handler: async () => undefined,
  });
}
