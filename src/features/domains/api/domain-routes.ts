import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Domain, Workspace } from '../../../core/entities.ts';
import { Refusal } from '../../../core/errors.ts';
import type { AccountStore, KeyStore, WorkspaceStore } from '../../../core/ports/store.ts';
import { callerOf } from '../../../http/api-auth.ts';
import { apiRoute, type RouteParts } from '../../../http/management-api.ts';
import { refuseOtherMethods } from '../../../http/method-guard.ts';
import { LOCATION_HEADER, noContentResponse, okResponse } from '../../../http/operation-doc.ts';
import { apiAuditor } from '../../workspaces/index.ts';
import { domainJson } from '../domain-json.ts';
import { type DomainsService, hostFrom, redirectTarget } from '../domains.ts';
import {
  CreateDomainBody,
  DomainListSchema,
  DomainSchema,
  HostParams,
  PatchDomainBody,
} from './domain-schemas.ts';

/** /api/v1/domains (docs/api.md §12), inside the management API's scope. */

export interface DomainRouteOptions {
  domains: DomainsService;
  store: Pick<
    AccountStore & KeyStore & WorkspaceStore,
    'findWorkspaceById' | 'findUserById' | 'listLiveKeys'
  >;
  origin: string;
}

const route = (
  write: boolean,
  operationId: string,
  summary: string,
  description: string,
  parts: RouteParts,
) =>
  apiRoute(
    { tag: 'Domains', scope: write ? 'domains:write' : undefined, operationId, summary, description },
    parts,
  );

const DOMAIN = okResponse(DomainSchema, 'The domain as it is now.');

const LIST = route(
  false,
  'listDomains',
  'List domains',
  'The default domain, the shared ones and the workspace’s own.',
  {
    ok: { 200: okResponse(DomainListSchema, 'The domains the workspace sees.') },
  },
);
const ADD = route(
  true,
  'addDomain',
  'Add a domain',
  'The workspace’s own; it serves links once its TXT record is found.',
  {
    body: CreateDomainBody,
    ok: { 201: okResponse(DomainSchema, 'Added, with the record that verifies it.', LOCATION_HEADER) },
    refusals: { 400: ['317'] },
  },
);
const GET = route(false, 'getDomain', 'Get a domain', 'One domain the workspace sees.', {
  params: HostParams,
  ok: { 200: DOMAIN },
  refusals: { 404: ['314'] },
});
const VERIFY = route(
  true,
  'verifyDomain',
  'Verify a domain',
  'Looks its TXT record up now; `verified` says whether it was found.',
  {
    params: HostParams,
    ok: { 200: DOMAIN },
    refusals: { 400: ['317'], 404: ['314'] },
  },
);
const PATCH = route(
  true,
  'updateDomain',
  'Change a domain',
  'Any of https, root_redirect, not_found_redirect; null clears a redirect.',
  {
    params: HostParams,
    body: PatchDomainBody,
    ok: { 200: DOMAIN },
    refusals: { 400: ['317'], 404: ['314'] },
  },
);
const DELETE = route(
  true,
  'deleteDomain',
  'Remove a domain',
  'Refused while it has live links (318); its codes are never issued again.',
  {
    params: HostParams,
    ok: { 204: noContentResponse('Removed.') },
    refusals: { 400: ['317'], 404: ['314'], 409: ['318'] },
  },
);

type Host = { Params: { host: string } };
type Patch = { https?: boolean; root_redirect?: string | null; not_found_redirect?: string | null };

export async function domainRoutes(v1: FastifyInstance, options: DomainRouteOptions): Promise<void> {
  const { domains } = options;
  const workspaceOf = async (request: FastifyRequest): Promise<Workspace> => {
    const workspace = await options.store.findWorkspaceById(callerOf(request).actor.workspaceId);
    if (!workspace) throw new Refusal('303');
    return workspace;
  };
  const shown = async (workspace: Workspace, domain: Domain) => {
    const view = await domains.viewOf(workspace, domain);
    return domainJson(view.domain, view.links);
  };
  /** Who acts, as the audit log names them: the key's maker, or the key by its prefix. */
  const by = (request: FastifyRequest) => apiAuditor(options.store, callerOf(request));
  const optional = (value: string | null | undefined) =>
    value === undefined ? undefined : redirectTarget(value);

  v1.get('/domains', LIST, async (request) => ({
    items: (await domains.list(await workspaceOf(request))).map((view) =>
      domainJson(view.domain, view.links),
    ),
  }));

  v1.post<{ Body: { host: string } }>('/domains', ADD, async (request, reply) => {
    const workspace = await workspaceOf(request);
    const domain = await domains.add(request.body.host, { workspace, shared: false }, await by(request));
    const where = `${options.origin}/api/v1/domains/${encodeURIComponent(domain.host)}`;
    return reply
      .code(201)
      .header('location', where)
      .send(await shown(workspace, domain));
  });

  v1.get<Host>('/domains/:host', GET, async (request) => {
    const workspace = await workspaceOf(request);
    const host = hostFrom(request.params.host);
    const view = (await domains.list(workspace)).find((one) => one.domain.host === host);
    if (!view) throw new Refusal('314');
    return domainJson(view.domain, view.links);
  });

  v1.post<Host>('/domains/:host/verify', VERIFY, async (request) => {
    const workspace = await workspaceOf(request);
    return shown(workspace, await domains.verify(workspace, request.params.host, await by(request)));
  });

  v1.patch<Host & { Body: Patch }>('/domains/:host', PATCH, async (request) => {
    const workspace = await workspaceOf(request);
    const { body } = request;
    const change = {
      https: body.https,
      rootRedirect: optional(body.root_redirect),
      notFoundRedirect: optional(body.not_found_redirect),
    };
    const domain = await domains.update(workspace, request.params.host, change, await by(request));
    return shown(workspace, domain);
  });

  v1.delete<Host>('/domains/:host', DELETE, async (request, reply) => {
    await domains.remove(await workspaceOf(request), request.params.host, await by(request));
    return reply.code(204).send();
  });

  refuseOtherMethods(v1, '/domains', ['GET', 'POST']);
  refuseOtherMethods(v1, '/domains/:host', ['GET', 'PATCH', 'DELETE']);
  refuseOtherMethods(v1, '/domains/:host/verify', ['POST']);
}
