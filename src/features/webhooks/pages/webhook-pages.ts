import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Refusal } from '../../../core/errors.ts';
import type { WebhookEndpoint } from '../../../core/ports/webhook-store.ts';
import { field, fieldList, positiveInt } from '../../../web/form-fields.ts';
import { workspacePath } from '../../../web/frame.ts';
import { pageScope } from '../../../web/page-errors.ts';
import { refusedOn } from '../../../web/page-refusals.ts';
import { sendPage } from '../../../web/send-page.ts';
import { cookieOptions } from '../../../web/session/session-cookie.ts';
import {
  type InWorkspace,
  type WorkspaceDeps,
  workspaceForm,
  workspaceFrame,
  workspacePage,
} from '../../../web/session/workspace-pages.ts';
import { userAuditor } from '../../workspaces/index.ts';
import type { EndpointFields, EndpointService } from '../endpoints.ts';
import { type EndpointPageView, endpointPage } from './endpoint-page.ts';
import { type EndpointDraft, type WebhooksPageView, webhooksPage } from './webhooks-page.ts';

/**
 * /w/<slug>/webhooks and its forms (docs/api.md §14): admins and owners (`webhooks:write`) list the
 * workspace's endpoints, add one, and on each endpoint's page see its deliveries of the last seven
 * days, send one again, send a test event, change, rotate, disable, enable and remove it. Every
 * change goes through the endpoint service, as the API's does; others get the 403 page.
 */

export interface WebhookPageOptions extends WorkspaceDeps {
  endpoints: EndpointService;
}

/** Deliveries on one page of an endpoint's list. */
const PAGE_SIZE = 50;

/**
 * The one-time display of a secret after the redirect: a short-lived cookie naming the endpoint, with
 * a MAC keyed by that endpoint's secret over the session and expiry. It carries no secret; it shows
 * the endpoint's current one only to this session, only while that is still the secret it was made
 * for, and the first GET of the endpoint's page clears it.
 */
const SECRET_COOKIE = 'snip_fresh_secret';
const SECRET_TTL_SECONDS = 600;
const secretMac = (sessionId: string, endpoint: WebhookEndpoint, exp: number): Buffer =>
  createHmac('sha256', endpoint.secret).update(`${sessionId}.${endpoint.id}.${exp}`).digest();

function secretShown(options: WebhookPageOptions) {
  return {
    mark(reply: FastifyReply, here: InWorkspace, endpoint: WebhookEndpoint): void {
      const exp = options.now() + SECRET_TTL_SECONDS * 1000;
      const mac = secretMac(here.sessionId, endpoint, exp).toString('base64url');
      const cookie = cookieOptions(options.policy, '/w/', SECRET_TTL_SECONDS);
      reply.setCookie(SECRET_COOKIE, `${endpoint.id}.${exp}.${mac}`, cookie);
    },
    take(request: FastifyRequest, reply: FastifyReply, here: InWorkspace, endpoint: WebhookEndpoint) {
      const value = request.cookies[SECRET_COOKIE];
      if (value === undefined) return undefined;
      reply.clearCookie(SECRET_COOKIE, cookieOptions(options.policy, '/w/'));
      const [id, exp, mac] = value.split('.');
      if (Number(id) !== endpoint.id || !(Number(exp) > options.now()) || mac === undefined) return undefined;
      const want = secretMac(here.sessionId, endpoint, Number(exp));
      const got = Buffer.from(mac, 'base64url');
      return got.length === want.length && timingSafeEqual(got, want) ? endpoint.secret : undefined;
    },
  };
}

const idParam = (request: FastifyRequest, name: string): number =>
  positiveInt((request.params as Record<string, unknown>)[name]) ?? Number.NaN;

const doneOf = (request: FastifyRequest): string | undefined => field(request.query, 'done') || undefined;

/** What the add and edit forms sent. */
const draftOf = (body: unknown): EndpointDraft => ({
  url: field(body, 'url').trim(),
  events: fieldList(body, 'events'),
  description: field(body, 'description'),
});

/** The endpoint, or undefined when the workspace has none of that id (a storage fault still throws). */
async function findOrNone(endpoints: EndpointService, here: InWorkspace, id: number) {
  try {
    return await endpoints.get(here.workspace.id, id);
  } catch (error) {
    if (error instanceof Refusal) return undefined;
    throw error;
  }
}

/** The list page, one endpoint's page, and either again after a refused form, the reason shown. */
function webhooksRenderer(options: WebhookPageOptions) {
  const { endpoints } = options;
  const base = (here: InWorkspace) => ({ frame: workspaceFrame(here), workspace: here.workspace });

  async function list(
    reply: FastifyReply,
    here: InWorkspace,
    status: number,
    extra: Partial<WebhooksPageView>,
  ) {
    const all = await endpoints.list(here.workspace.id);
    return sendPage(reply, status, webhooksPage({ ...base(here), endpoints: all, ...extra }));
  }

  async function one(
    reply: FastifyReply,
    here: InWorkspace,
    endpoint: WebhookEndpoint,
    status: number,
    extra: Partial<EndpointPageView> & { before?: number },
  ) {
    const { before, ...rest } = extra;
    const found = await endpoints.deliveries(here.workspace.id, endpoint.id, PAGE_SIZE + 1, before);
    const deliveries = found.slice(0, PAGE_SIZE);
    const older = found.length > PAGE_SIZE ? deliveries.at(-1)?.id : undefined;
    const view = { ...base(here), endpoint, deliveries, older, paged: before !== undefined, ...rest };
    return sendPage(reply, status, endpointPage(view));
  }

  /** A refusal on the endpoint's page; on the list when the endpoint is not (or no longer) there. */
  async function refused(
    reply: FastifyReply,
    here: InWorkspace,
    id: number | undefined,
    error: unknown,
    extra: { draft?: EndpointDraft } = {},
  ) {
    const { status, error: shown } = refusedOn(reply, error);
    const endpoint = id === undefined ? undefined : await findOrNone(endpoints, here, id);
    if (endpoint) return one(reply, here, endpoint, status, { ...extra, error: shown });
    return list(reply, here, status, { ...(id === undefined ? extra : {}), error: shown });
  }
  return { list, one, refused };
}

/** What an update form changes: the edit form's fields (a URL only when changed), or on/off alone. */
async function changeOf(endpoints: EndpointService, here: InWorkspace, id: number, body: unknown) {
  const fields: EndpointFields = {};
  if (field(body, 'edit') === 'yes') {
    const draft = draftOf(body);
    const current = await endpoints.get(here.workspace.id, id);
    if (draft.url !== current.url) fields.url = draft.url;
    fields.events = draft.events;
    fields.description = draft.description;
  }
  const enabled = field(body, 'enabled');
  if (enabled === 'true' || enabled === 'false') fields.enabled = enabled === 'true';
  if (Object.keys(fields).length === 0) throw new Refusal('300', 'The form changes nothing.');
  return fields;
}

const listPath = (here: InWorkspace, done: string) =>
  workspacePath(here.workspace.slug, `/webhooks?done=${done}`);
const endpointPath = (here: InWorkspace, id: number, done: string) =>
  workspacePath(here.workspace.slug, `/webhooks/${id}?done=${done}`);

/** What the routes share: the options, the renderer and the one-time secret. */
interface Parts {
  options: WebhookPageOptions;
  render: ReturnType<typeof webhooksRenderer>;
  secret: ReturnType<typeof secretShown>;
}

/** The list, the form that adds an endpoint, and one endpoint's page. */
function pageRoutes(app: FastifyInstance, { options, render, secret }: Parts): void {
  const { endpoints } = options;
  app.get(
    '/w/:workspace/webhooks',
    workspacePage(options, 'webhooks:write', (request, reply, here) =>
      render.list(reply, here, 200, { done: doneOf(request) }),
    ),
  );

  app.post(
    '/w/:workspace/webhooks',
    workspaceForm(options, 'webhooks:write', async (request, reply, here) => {
      const draft = draftOf(request.body);
      try {
        const endpoint = await endpoints.create(here.workspace.id, draft, userAuditor(here.user));
        secret.mark(reply, here, endpoint);
        return reply.redirect(endpointPath(here, endpoint.id, 'added'), 303);
      } catch (error) {
        return render.refused(reply, here, undefined, error, { draft });
      }
    }),
  );

  app.get(
    '/w/:workspace/webhooks/:id',
    workspacePage(options, 'webhooks:write', async (request, reply, here) => {
      const endpoint = await findOrNone(endpoints, here, idParam(request, 'id'));
      if (!endpoint) {
        const missing = new Refusal('314', 'This workspace has no such webhook endpoint.');
        return render.refused(reply, here, undefined, missing);
      }
      const before = positiveInt(field(request.query, 'before'));
      const shown = secret.take(request, reply, here, endpoint);
      return render.one(reply, here, endpoint, 200, { done: doneOf(request), before, secret: shown });
    }),
  );
}

/** The forms about one endpoint: each change, then back to its page (or the list) with `done`. */
function endpointForms(app: FastifyInstance, { options, render, secret }: Parts): void {
  const { endpoints } = options;
  const endpointForm = (
    path: string,
    change: (here: InWorkspace, id: number, request: FastifyRequest, reply: FastifyReply) => Promise<string>,
  ) =>
    app.post(
      path,
      workspaceForm(options, 'webhooks:write', async (request, reply, here) => {
        const id = idParam(request, 'id');
        try {
          const done = await change(here, id, request, reply);
          const next = done === 'removed' ? listPath(here, done) : endpointPath(here, id, done);
          return reply.redirect(next, 303);
        } catch (error) {
          const edit = field(request.body, 'edit') === 'yes';
          return render.refused(reply, here, id, error, edit ? { draft: draftOf(request.body) } : {});
        }
      }),
    );

  endpointForm('/w/:workspace/webhooks/:id/update', async (here, id, request) => {
    const fields = await changeOf(endpoints, here, id, request.body);
    await endpoints.update(here.workspace.id, id, fields, userAuditor(here.user));
    if (fields.events !== undefined) return 'saved';
    return fields.enabled ? 'enabled' : 'disabled';
  });

  endpointForm('/w/:workspace/webhooks/:id/rotate', async (here, id, _request, reply) => {
    secret.mark(reply, here, await endpoints.rotate(here.workspace.id, id, userAuditor(here.user)));
    return 'rotated';
  });

  endpointForm('/w/:workspace/webhooks/:id/delete', async (here, id) => {
    await endpoints.remove(here.workspace.id, id, userAuditor(here.user));
    return 'removed';
  });

  endpointForm('/w/:workspace/webhooks/:id/test', async (here, id) => {
    await endpoints.test(here.workspace.id, id);
    return 'test-sent';
  });

  endpointForm('/w/:workspace/webhooks/:id/deliveries/:delivery/resend', async (here, id, request) => {
    await endpoints.resend(here.workspace.id, id, idParam(request, 'delivery'));
    return 'resent';
  });
}

/** The pages scope of its own: app.ts registers it beside the domains pages. */
export async function webhookPages(app: FastifyInstance, options: WebhookPageOptions): Promise<void> {
  pageScope(app);
  const parts = { options, render: webhooksRenderer(options), secret: secretShown(options) };
  pageRoutes(app, parts);
  endpointForms(app, parts);
}
