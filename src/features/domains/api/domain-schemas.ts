import { Type } from '@sinclair/typebox';

/** The domains of the management API (docs/api.md §12). */

const redirect = (what: string) =>
  Type.Union([Type.String({ maxLength: 2048, format: 'uri' }), Type.Null()], {
    description: `Where ${what} goes; null: ${what === 'GET /' ? 'the landing page on the default domain, 404 elsewhere' : 'the 404 page'}.`,
  });

export const DomainSchema = Type.Object(
  {
    host: Type.String({ description: 'ASCII form: lower case, punycode, no port or trailing dot.' }),
    shared: Type.Boolean({
      description: 'Every workspace may put links on it (the default and operator domains).',
    }),
    verified: Type.Boolean({ description: 'It serves links (and gets certificates).' }),
    https: Type.Boolean({ description: 'Short URLs on it start with https://.' }),
    root_redirect: redirect('GET /'),
    not_found_redirect: redirect('an unknown code'),
    verification: Type.Union(
      [
        Type.Object(
          {
            record: Type.String({ description: 'The TXT record to create: _snip-challenge.<host>.' }),
            value: Type.String({ description: 'What it must hold.' }),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: 'How to verify it; null once verified.' },
    ),
    links: Type.Integer({ description: "The workspace's live links on it." }),
  },
  { $id: 'Domain', additionalProperties: false },
);

export const DomainListSchema = Type.Object(
  { items: Type.Array(Type.Ref(DomainSchema)) },
  { $id: 'DomainList', additionalProperties: false },
);

export const CreateDomainBody = Type.Object(
  { host: Type.String({ maxLength: 1024, description: 'The host, e.g. go.example.com (IDN allowed).' }) },
  { additionalProperties: false },
);

export const PatchDomainBody = Type.Object(
  {
    https: Type.Optional(Type.Boolean()),
    root_redirect: Type.Optional(Type.Union([Type.String({ maxLength: 4096 }), Type.Null()])),
    not_found_redirect: Type.Optional(Type.Union([Type.String({ maxLength: 4096 }), Type.Null()])),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const HostParams = Type.Object({ host: Type.String({ maxLength: 1024 }) });

export const DOMAIN_SCHEMAS = [DomainSchema, DomainListSchema];
