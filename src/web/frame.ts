import type { FastifyRequest } from 'fastify';

/** The signed-in frame of a page: who, and the session's CSRF token for its forms. */
export interface Frame {
  email: string;
  csrfToken: string;
}

/**
 * Who is signed in for this request, if anyone: the accounts feature answers it, and app.ts hands
 * the answer to every feature whose pages show the signed-in navigation.
 */
export type FrameOf = (request: FastifyRequest) => Promise<Frame | undefined>;
