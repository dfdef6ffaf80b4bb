import { Type } from '@sinclair/typebox';
import {
  MAX_PREVIEW_DESCRIPTION,
  MAX_PREVIEW_TITLE,
  MAX_UTM_VALUE,
  UTM_KEYS,
} from '../../../core/link-campaign.ts';

/** A link's campaign fields (docs/api.md §16): UTM parameters in, query forwarding and the social preview both ways. */

/** What a create or an edit may name besides the rules (core/link-campaign.ts checks them: 300). */
export const CAMPAIGN_FIELDS = {
  utm: Type.Optional(
    Type.Object(
      Object.fromEntries(
        UTM_KEYS.map((key) => [key, Type.Optional(Type.String({ maxLength: MAX_UTM_VALUE * 4 }))]),
      ),
      {
        additionalProperties: false,
        description:
          `Campaign parameters written into the URL's query as utm_source … utm_content (at most ${MAX_UTM_VALUE} ` +
          'characters each), replacing the same keys where they stand; "" removes one. Not kept apart: ' +
          'they live in long_url. On an edit without url, the current long_url gets them.',
      },
    ),
  ),
  forward_query: Type.Optional(
    Type.Boolean({
      description:
        "The short URL's own query string is appended to the target at the redirect (qr=1 never is).",
    }),
  ),
  preview: Type.Optional(
    Type.Union(
      [
        Type.Object(
          {
            title: Type.Optional(Type.String({ maxLength: MAX_PREVIEW_TITLE * 4 })),
            description: Type.Optional(Type.String({ maxLength: MAX_PREVIEW_DESCRIPTION * 4 })),
            image: Type.Optional(Type.Union([Type.String({ maxLength: 8192 }), Type.Null()])),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      {
        description:
          `The card link previewers (chat apps, social networks) show: title (at most ${MAX_PREVIEW_TITLE} ` +
          `characters), description (at most ${MAX_PREVIEW_DESCRIPTION}), image (an https URL). null removes it.`,
      },
    ),
  ),
};

/** What the link resource shows of them. */
export const CAMPAIGN_RESOURCE = {
  forward_query: Type.Boolean({ description: "The short URL's own query is appended to the target." }),
  preview: Type.Union(
    [
      Type.Object(
        {
          title: Type.String(),
          description: Type.String(),
          image: Type.Union([Type.String({ format: 'uri' }), Type.Null()]),
        },
        { additionalProperties: false },
      ),
      Type.Null(),
    ],
    { description: 'The card link previewers get instead of the redirect; null: none.' },
  ),
};
