import type { FastifyReply } from 'fastify';

/** An RFC 9457 problem: what the JSON API answers when it refuses or fails. */
export interface Problem {
  status: number;
  title: string;
  detail: string;
  /** Snip's numbered code as text (docs/api.md §2.3), or the HTTP status where no code applies. */
  code: string;
}

export function sendProblem(reply: FastifyReply, problem: Problem): FastifyReply {
  return reply
    .code(problem.status)
    .type('application/problem+json')
    .send({ type: 'about:blank', ...problem });
}
