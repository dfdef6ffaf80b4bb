import { DAY_MS, dayText } from '../../core/days.ts';
import type { Link } from '../../core/entities.ts';
import { healthReason } from '../../core/link-health.ts';
import type { HealthStore } from '../../core/ports/health-store.ts';
import type { Mailer, MailMessage } from '../../core/ports/mailer.ts';
import type { WorkspaceStore } from '../../core/ports/people-store.ts';
import { type LinkOrigins, shortUrl } from '../../core/short-url.ts';
import { html } from '../../web/html.ts';

/**
 * The daily mail of newly broken links (docs/api.md §21): to a workspace's owners and admins who
 * have not turned it off, at most one a day per workspace (the store's claim on the day holds
 * across a fleet), only when mail is configured.
 */

const TOLD = new Set(['owner', 'admin']);
/** Links named in one mail; the rest are counted and found through the list's filter. */
const LISTED = 50;

export interface DigestDeps {
  store: HealthStore & Pick<WorkspaceStore, 'listMembers' | 'findWorkspaceById'>;
  mailer: () => Promise<Mailer | undefined>;
  origins: LinkOrigins;
  baseUrl: URL;
  now: () => number;
  onError: (error: unknown) => void;
}

interface Broken {
  url: string;
  target: string;
  why: string;
  since: string;
}

function brokenOf(origins: LinkOrigins, link: Link): Broken {
  const { health } = link;
  return {
    url: shortUrl(origins, link),
    target: link.longUrl,
    why: healthReason(health.cause?.code ?? health.code, health.cause?.status ?? health.status),
    since: (health.since ?? new Date(0)).toISOString().replace('T', ' ').slice(0, 16),
  };
}

function digestMail(
  to: string,
  name: string,
  links: readonly Broken[],
  list: string,
  settings: string,
): MailMessage {
  const lines = links.map((one) => `- ${one.url} → ${one.target}\n  ${one.why}, since ${one.since} UTC`);
  const text = `Links of ${name} stopped working since the last mail. They keep redirecting; their targets failed two checks in a row.

${lines.join('\n')}

All broken links: ${list}
To stop these mails, turn them off on ${settings}
`;
  return {
    to,
    subject: `Snip: ${links.length === 1 ? 'a link' : `${links.length} links`} of ${name} stopped working`,
    text,
    html: html`<!doctype html>
<html><body style="font-family: sans-serif; line-height: 1.5">
<p>Links of ${name} stopped working since the last mail. They keep redirecting; their targets failed two checks in a row.</p>
<ul>${links.map((one) => html`<li><a href="${one.url}">${one.url}</a> → <code>${one.target}</code><br>${one.why}, since ${one.since} UTC</li>`)}</ul>
<p><a href="${list}">All broken links</a> · <a href="${settings}">Stop these mails</a></p>
</body></html>
`.html,
  };
}

export function healthDigest(deps: DigestDeps) {
  async function sendFor(workspaceId: number, after: number, now: number): Promise<number> {
    const { store } = deps;
    const mailer = await deps.mailer();
    if (!mailer) return 0;
    const workspace = await store.findWorkspaceById(workspaceId);
    if (!workspace) return 0;
    // The day's one digest is taken first, so two instances never both send it.
    if (!(await store.claimHealthDigest(workspaceId, dayText(Math.floor(now / DAY_MS)), now))) return 0;
    const links = (await store.newlyBrokenLinks(workspaceId, after, LISTED)).filter(
      (link) => (link.health.since?.getTime() ?? 0) <= now,
    );
    if (links.length === 0) return 0;
    const list = new URL(`/w/${encodeURIComponent(workspace.slug)}?state=broken`, deps.baseUrl).href;
    const settings = new URL('/account/mail', deps.baseUrl).href;
    const shown = links.map((link) => brokenOf(deps.origins, link));
    let sent = 0;
    for (const member of await store.listMembers(workspaceId)) {
      if (!TOLD.has(member.role) || !(await store.healthMailOn(member.userId))) continue;
      await mailer.send(digestMail(member.email, workspace.name, shown, list, settings));
      sent++;
    }
    return sent;
  }

  return {
    /** Sends the digests due now; how many mails went. */
    async runOnce(): Promise<number> {
      if (!(await deps.mailer())) return 0;
      const now = deps.now();
      let sent = 0;
      for (const { workspaceId, after } of await deps.store.workspacesWithNewlyBroken()) {
        try {
          sent += await sendFor(workspaceId, after, now);
        } catch (error) {
          deps.onError(error);
        }
      }
      return sent;
    },
  };
}

export type HealthDigest = ReturnType<typeof healthDigest>;
