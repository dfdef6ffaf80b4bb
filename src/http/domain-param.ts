import { Type } from '@sinclair/typebox';

/** `?domain=<host>`: which domain's code space a code is on (docs/api.md §12). */
export const DOMAIN_PARAM = Type.Optional(
  Type.String({
    maxLength: 1024,
    description:
      "The link's domain (host), for a code that exists on several; by default the workspace's default domain.",
  }),
);
