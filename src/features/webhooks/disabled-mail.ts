import type { Mailer, MailMessage } from '../../core/ports/mailer.ts';
import type { WorkspaceStore } from '../../core/ports/people-store.ts';
import type { WebhookEndpoint } from '../../core/ports/webhook-store.ts';
import { html } from '../../web/html.ts';

/** Who may see an endpoint, told when Snip disables it. */
const TOLD = new Set(['owner', 'admin']);

export interface DisabledMailDeps {
  store: Pick<WorkspaceStore, 'listMembers' | 'findWorkspaceById'>;
  mailer: Mailer;
  baseUrl: URL;
  onError: (error: unknown) => void;
}

function disabledMail(to: string, endpoint: WebhookEndpoint, page: string): MailMessage {
  const text = `Snip disabled the webhook endpoint ${endpoint.url}: its deliveries failed for a day or more (${endpoint.failures} attempts in a row).

No events go to it until it is enabled again: ${page}
`;
  return {
    to,
    subject: 'Snip: a webhook endpoint was disabled',
    text,
    html: html`<!doctype html>
<html><body style="font-family: sans-serif; line-height: 1.5">
<p>Snip disabled the webhook endpoint <code>${endpoint.url}</code>: its deliveries failed for a day or more (${String(endpoint.failures)} attempts in a row).</p>
<p>No events go to it until it is enabled again: <a href="${page}">the workspace’s webhooks</a>.</p>
</body></html>
`.html,
  };
}

/** Mails the workspace's owners and admins that an endpoint was disabled for failing (docs/api.md §14). */
export function disabledMailer(deps: DisabledMailDeps) {
  return async (endpoint: WebhookEndpoint): Promise<void> => {
    try {
      const workspace = await deps.store.findWorkspaceById(endpoint.workspaceId);
      if (!workspace) return;
      const page = new URL(`/w/${workspace.slug}/webhooks`, deps.baseUrl).href;
      const members = await deps.store.listMembers(endpoint.workspaceId);
      for (const member of members.filter((one) => TOLD.has(one.role)))
        await deps.mailer.send(disabledMail(member.email, endpoint, page));
    } catch (error) {
      deps.onError(error);
    }
  };
}
