import { displayHost } from '../../core/domain-host.ts';
import type { Domain } from '../../core/entities.ts';
import type { RecordAudit } from '../../core/moderation.ts';
import type { Mailer, MailMessage } from '../../core/ports/mailer.ts';
import type { WorkspaceStore } from '../../core/ports/people-store.ts';
import { html } from '../../web/html.ts';

/**
 * Telling a workspace that its claim on a host was dropped because another workspace (or the
 * operator, sharing it) verified the host first (docs/api.md §12): an audit-log entry in that
 * workspace, `domain.drop` by `snip`, and, with mail configured, a mail to its owners and admins.
 */

/** Who may add and verify domains, told when a claim goes. */
const TOLD = new Set(['owner', 'admin']);

/** The audit log's actor for what Snip itself does. */
const SNIP_ACTOR = { actorId: null, actor: 'snip' } as const;

export interface DomainNoticeDeps {
  store: Pick<WorkspaceStore, 'listMembers' | 'findWorkspaceById'>;
  audit: RecordAudit;
  mail?: { mailer: Mailer; baseUrl: URL };
  onError: (error: unknown) => void;
}

/** "bücher.example (xn--bcher-kva.example)": a host as people read it, and as DNS knows it. */
const hostAsRead = (host: string) => {
  const shown = displayHost(host);
  return shown === host ? host : `${shown} (${host})`;
};

function droppedMail(to: string, host: string, workspaceName: string, page: string): MailMessage {
  const name = workspaceName.replace(/[\p{Cc}\s]+/gu, ' ').trim();
  const shown = hostAsRead(host);
  return {
    to,
    subject: `Snip: the domain ${shown} was verified by someone else`,
    text: `The domain ${shown} was verified on Snip by another workspace before "${name}" verified it, so the workspace's unverified claim on it was removed.

If the domain is yours, check who controls its DNS records. The workspace's domains: ${page}
`,
    html: html`<!doctype html>
<html><body style="font-family: sans-serif; line-height: 1.5">
<p>The domain <strong>${shown}</strong> was verified on Snip by another workspace before <strong>${name}</strong> verified it, so the workspace’s unverified claim on it was removed.</p>
<p>If the domain is yours, check who controls its DNS records. <a href="${page}">The workspace’s domains</a>.</p>
</body></html>
`.html,
  };
}

/**
 * Records each claim dropped before the change answers, and mails its workspace in the background
 * (a slow mail server delays no one); a failure is reported, never thrown.
 */
export function claimDroppedNotice(deps: DomainNoticeDeps) {
  async function mail(host: string, workspaceId: number, mail: NonNullable<DomainNoticeDeps['mail']>) {
    const workspace = await deps.store.findWorkspaceById(workspaceId);
    if (!workspace) return;
    const page = new URL(`/w/${workspace.slug}/domains`, mail.baseUrl).href;
    const members = await deps.store.listMembers(workspaceId);
    for (const member of members.filter((one) => TOLD.has(one.role))) {
      await mail.mailer.send(droppedMail(member.email, host, workspace.name, page));
    }
  }
  return async (claim: Domain): Promise<void> => {
    const { workspaceId } = claim;
    if (workspaceId === null) return;
    await deps.audit({
      ...SNIP_ACTOR,
      workspaceId,
      action: 'domain.drop',
      target: claim.host,
      before: { verified: false },
      after: null,
    });
    if (deps.mail) mail(claim.host, workspaceId, deps.mail).catch(deps.onError);
  };
}
