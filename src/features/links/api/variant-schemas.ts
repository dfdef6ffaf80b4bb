import { Type } from '@sinclair/typebox';
import { MAX_VARIANTS, MIN_VARIANTS } from '../../../core/link-variants.ts';
import { MAX_URL_LENGTH } from '../../../core/target-url.ts';

/** A link's A/B test (docs/api.md §20.x): its variants and end, in a request and on the resource. */

const variant = Type.Object(
  {
    url: Type.String({ maxLength: MAX_URL_LENGTH * 4, description: "Checked like the link's url." }),
    weight: Type.Integer({ description: 'Whole per cent of the clicks no targeting rule took: 0-100.' }),
  },
  { additionalProperties: false },
);

/** What a create or an edit may name of a test (core/link-variants.ts checks the rest: 300). */
export const TEST_FIELDS = {
  variants: Type.Optional(
    Type.Union([Type.Array(variant, { maxItems: MAX_VARIANTS * 2 }), Type.Null()], {
      description:
        `${MIN_VARIANTS} to ${MAX_VARIANTS} URLs with weights summing to 100: a click no targeting rule ` +
        'took goes to one by weight, the same visitor to the same one all day. Each url passes the ' +
        'checks of url (300, 305, 310, 316, 306-311). New URLs start the test anew; null ends it ' +
        'with no winner.',
    }),
  ),
  test_ends_at: Type.Optional(
    Type.Union([Type.String({ maxLength: 40 }), Type.Null()], {
      description:
        'RFC 3339 date-time in the future: then the variant with the most leads per click (ties: ' +
        "sales, then clicks) becomes the link's url and the variants are cleared. Needs variants; " +
        'null: the test runs until changed.',
    }),
  ),
};

/** What the link resource shows of it. */
export const TEST_RESOURCE = {
  variants: Type.Array(variant, { description: "The running A/B test's variants; [] when none." }),
  test_ends_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When the running test ends (UTC); null: none, or it runs until changed.',
  }),
};
