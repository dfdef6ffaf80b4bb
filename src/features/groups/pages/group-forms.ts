import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Refusal } from '../../../core/errors.ts';
import { field, positiveInt } from '../../../web/form-fields.ts';
import { workspacePath } from '../../../web/frame.ts';
import type { PageError } from '../../../web/notices.ts';
import { refusedOn } from '../../../web/page-refusals.ts';
import { type InWorkspace, type WorkspaceDeps, workspaceForm } from '../../../web/session/workspace-pages.ts';
import type { WorkspaceGroups } from '../workspace-groups.ts';

export interface GroupFormOptions extends WorkspaceDeps {
  groups: WorkspaceGroups;
  /** The page the forms are on, again, with why a change was refused. */
  refused(
    request: FastifyRequest,
    reply: FastifyReply,
    user: InWorkspace,
    status: number,
    error: PageError,
  ): Promise<unknown>;
  /** The page for a group that is not the account's. */
  notFound(reply: FastifyReply, user: InWorkspace, what: string): unknown;
}

/** The groups card's forms on /w/<slug>: create, rename and delete a group (its links stay). */
export async function groupForms(app: FastifyInstance, options: GroupFormOptions): Promise<void> {
  const { groups, refused, notFound } = options;

  /**
   * A group change, then back to the groups; a refusal re-renders the dashboard with its reason, and
   * a group that is not the account's is a 404.
   */
  async function changeGroup(
    request: FastifyRequest,
    reply: FastifyReply,
    user: InWorkspace,
    change: () => Promise<unknown>,
    done: string,
  ) {
    try {
      await change();
      return reply.redirect(`${workspacePath(user.workspace.slug)}?done=${done}#groups`, 303);
    } catch (error) {
      const { status, error: shown } = refusedOn(reply, error);
      if (shown.code === 'not-found') return notFound(reply, user, 'group');
      return refused(request, reply, user, status, { ...shown, message: `Not saved: ${shown.message}.` });
    }
  }

  const groupId = (request: FastifyRequest) => {
    const id = positiveInt((request.params as { id: string }).id);
    if (id === undefined) throw new Refusal('not-found');
    return id;
  };
  const groupFields = (request: FastifyRequest) =>
    [field(request.body, 'name'), field(request.body, 'api_id')] as const;

  app.post(
    '/w/:workspace/groups',
    workspaceForm(options, 'groups:write', (request, reply, user) =>
      changeGroup(
        request,
        reply,
        user,
        () => groups.create(user.workspace, ...groupFields(request)),
        'group-created',
      ),
    ),
  );

  app.post(
    '/w/:workspace/groups/:id',
    workspaceForm(options, 'groups:write', (request, reply, user) =>
      changeGroup(
        request,
        reply,
        user,
        async () => groups.rename(user.workspace, groupId(request), ...groupFields(request)),
        'group-renamed',
      ),
    ),
  );

  app.post(
    '/w/:workspace/groups/:id/delete',
    workspaceForm(options, 'groups:write', (request, reply, user) =>
      changeGroup(
        request,
        reply,
        user,
        async () => groups.delete(user.workspace, groupId(request)),
        'group-deleted',
      ),
    ),
  );
}
