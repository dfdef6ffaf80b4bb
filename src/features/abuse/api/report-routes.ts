import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { jsonOnly } from '../../../http/management-api.ts';
import { refuseOtherMethods } from '../../../http/method-guard.ts';
import { problemResponse, RETRY_AFTER_HEADER } from '../../../http/openapi-parts.ts';
import { field } from '../../../web/form-fields.ts';
import { pageScope } from '../../../web/page-errors.ts';
import { refusedOn } from '../../../web/page-refusals.ts';
import { sendPage } from '../../../web/send-page.ts';
import type { FormTokens } from '../../../web/session/csrf.ts';
import { refuseForgedForm } from '../../../web/session/handlers.ts';
import type { CookiePolicy } from '../../../web/session/session-cookie.ts';
import { reportPage } from '../pages/report-page.ts';
import type { ReportService } from '../reports.ts';
import { ReportBody, ReportCreatedSchema } from './abuse-schemas.ts';

const REPORT_DOC = {
  operationId: 'createReport',
  summary: 'Report a short link',
  description:
    'Anyone may report a short link of this Snip (no key): it lands in the operators’ queue. At most 5 reports ' +
    'per address an hour.',
  tags: ['Reports'],
  security: [],
  response: {
    201: { ...Type.Ref(ReportCreatedSchema), description: 'In the queue.' },
    400: problemResponse('`300` a field is missing, of a wrong type or too long; `302` no url.'),
    404: problemResponse('`314` the url is not a short link of this Snip.'),
    429: problemResponse('`429` this address sent 5 reports this hour.', RETRY_AFTER_HEADER),
  },
};

/** POST /api/v1/reports (docs/api.md §13), inside the management API's scope but needing no key. */
export async function reportApiRoutes(
  app: FastifyInstance,
  options: { reports: ReportService },
): Promise<void> {
  app.post(
    '/reports',
    {
      bodyLimit: 16_384,
      config: { keyless: true },
      preValidation: jsonOnly,
      schema: { body: ReportBody, ...REPORT_DOC },
    },
    async (request, reply) => {
      const report = await options.reports.submit(request.body as Record<string, unknown>, request.ip);
      return reply.code(201).send({ id: report.id });
    },
  );
  refuseOtherMethods(app, '/reports', ['POST']);
}

export interface ReportPageOptions {
  reports: ReportService;
  forms: FormTokens;
  policy: CookiePolicy;
}

/** GET/POST /report: the public form, with a signed-out form token against cross-site posts. */
export async function reportPages(app: FastifyInstance, options: ReportPageOptions): Promise<void> {
  pageScope(app);
  const { formToken, hasFormToken } = options.forms;
  const token = (request: Parameters<typeof formToken>[0], reply: Parameters<typeof formToken>[1]) =>
    formToken(request, reply, options.policy);
  app.get('/report', async (request, reply) => {
    const made = Number(field(request.query, 'made')) || undefined;
    return sendPage(
      reply,
      200,
      reportPage({ csrfToken: token(request, reply), url: field(request.query, 'url'), made }),
    );
  });
  app.post('/report', { bodyLimit: 16_384 }, async (request, reply) => {
    if (!hasFormToken(request)) return refuseForgedForm(reply);
    const typed = {
      url: field(request.body, 'url'),
      reason: field(request.body, 'reason'),
      comment: field(request.body, 'comment'),
      email: field(request.body, 'email'),
    };
    try {
      const report = await options.reports.submit(typed, request.ip);
      return reply.redirect(`/report?made=${report.id}`, 303);
    } catch (error) {
      const { status, error: shown } = refusedOn(reply, error);
      return sendPage(
        reply,
        status,
        reportPage({ ...typed, csrfToken: token(request, reply), error: shown }),
      );
    }
  });
}
