import type { ApiErrorCode } from '../core/errors.ts';

/**
 * The HTTP status of each API code (docs/api.md §2.3): the one place statuses live, read by the
 * /create envelope, the management API's problems and by the pages that show an API refusal (the dashboard's create form).
 */
export const API_STATUS: Readonly<Record<ApiErrorCode, number>> = {
  '300': 400,
  '301': 401,
  '302': 400,
  '303': 401,
  '304': 403,
  '305': 409,
  '306': 422,
  '307': 422,
  '308': 422,
  '309': 422,
  '310': 422,
  '311': 422,
  '312': 422,
  '313': 409,
  '314': 404,
  '315': 403,
  '316': 403,
  '317': 400,
  '318': 409,
  '319': 409,
  '320': 422,
  '321': 404,
  '322': 404,
  '429': 429,
};
