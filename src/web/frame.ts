import type { FastifyRequest } from 'fastify';
import { type Action, may, type Role } from '../core/authorization.ts';

/** The workspace a page belongs to, for its navigation, its addresses and the switcher. */
export interface WorkspaceNav {
  slug: string;
  name: string;
  /** The signed-in user's role there: the navigation offers only what it may (core/authorization.ts). */
  role: Role;
  /** Every workspace of the user, for the switcher. */
  all: ReadonlyArray<{ slug: string; name: string }>;
  /** The workspace's time zone, which its pages enter and show dates in (docs/api.md §18); UTC when untold. */
  timeZone?: string;
}

/** The signed-in frame of a page: who, the session's CSRF token for its forms, and where. */
export interface Frame {
  email: string;
  csrfToken: string;
  workspace?: WorkspaceNav;
  /** The user runs this Snip: the navigation offers the operator console. */
  operator?: boolean;
}

/** A workspace page's address: /w/<slug><rest>. */
export function workspacePath(slug: string, rest = ''): string {
  return `/w/${encodeURIComponent(slug)}${rest}`;
}

/** The address of a page of the frame's workspace; /dashboard (which finds one) outside any. */
export function here(frame: Frame | undefined, rest = ''): string {
  return frame?.workspace ? workspacePath(frame.workspace.slug, rest) : `/dashboard${rest}`;
}

/**
 * Who is signed in for this request, if anyone (session/handlers.ts answers it), for every page
 * that shows the signed-in navigation.
 */
export type FrameOf = (request: FastifyRequest) => Promise<Frame | undefined>;

/** The time zone of the frame's workspace; UTC outside any. */
export function zoneHere(frame: Frame | undefined): string {
  return frame?.workspace?.timeZone ?? 'UTC';
}

/** Whether the page's user may do `action` in its workspace: forms they may not send are not shown. */
export function mayHere(frame: Frame | undefined, action: Action): boolean {
  return frame?.workspace !== undefined && may(frame.workspace.role, action);
}
