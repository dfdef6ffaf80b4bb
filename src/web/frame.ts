import type { FastifyRequest } from 'fastify';

/** The signed-in frame of a page: who, and the session's CSRF token for its forms. */
export interface Frame {
  email: string;
  csrfToken: string;
}

/**
 * Who is signed in for this request, if anyone (session/handlers.ts answers it), for every page
 * that shows the signed-in navigation.
 */
export type FrameOf = (request: FastifyRequest) => Promise<Frame | undefined>;
