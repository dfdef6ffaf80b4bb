import { DAY_MS } from '../../core/days.ts';
import type { Plan, Workspace } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import type { WorkspaceFigures } from '../../core/ports/console-store.ts';
import { field } from '../../web/form-fields.ts';
import type { Frame } from '../../web/frame.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { frameOf } from '../../web/session/handlers.ts';
import { type AdminPageOptions, PAGE_ROWS } from './admin-deps.ts';
import { consolePage, doneOf, rowForm, searchForm, timeOf } from './admin-nav.ts';
import type { Section, SectionAction } from './section.ts';

/**
 * /admin/workspaces (docs/api.md §13, §22): workspaces found by slug or name, each with its links
 * and clicks of 30 days (and its broken links once link health counts them); each moved to another
 * plan (audited as workspace.plan with the plans' names before and after), suspended with a reason
 * or resumed, or deleted (a box ticked first).
 */

const PATH = '/admin/workspaces';

const DONE: Record<string, string> = {
  'plan-changed': 'The workspace is on its new plan.',
  'plan-unchanged': 'The workspace was on that plan already.',
  suspended: 'The workspace is suspended: its links answer 410, its keys 303.',
  resumed: 'The workspace is live again.',
  deleted: 'The workspace was emptied for good: its links, keys and members are gone.',
};

function planForm(frame: Frame, workspace: Workspace, plans: readonly Plan[], q: string): SafeHtml {
  const options = plans.map(
    (plan) =>
      html`<option value="${plan.name}"${plan.id === workspace.plan.id ? html` selected` : html``}>${plan.name}</option>`,
  );
  return rowForm(
    frame,
    `${PATH}/plan`,
    { slug: workspace.slug, q },
    html`<label><span class="visually-hidden">Plan of ${workspace.slug}</span><select name="plan">${options}</select></label>
<button type="submit" class="secondary small" data-action="plan">Change<span class="visually-hidden"> the plan of ${workspace.slug}</span></button>`,
    'row',
  );
}

function state(workspace: Workspace): SafeHtml {
  const { suspended } = workspace;
  if (suspended === null) return html`<span class="badge" data-state="active">active</span>`;
  return html`<span class="badge gone" data-state="suspended">suspended</span> <span class="hint" data-reason>${suspended.reason}</span>`;
}

function actions(frame: Frame, workspace: Workspace, q: string): SafeHtml {
  const hidden = { slug: workspace.slug, q };
  const named = html`<span class="visually-hidden"> ${workspace.slug}</span>`;
  const suspend =
    workspace.suspended === null
      ? rowForm(
          frame,
          `${PATH}/suspend`,
          hidden,
          html`<label>Reason <input type="text" name="reason" required maxlength="500" value="abuse"></label>
<button type="submit" class="danger small" data-action="suspend">Suspend${named}</button>`,
          'stack',
        )
      : rowForm(
          frame,
          `${PATH}/resume`,
          hidden,
          html`<button type="submit" class="secondary small" data-action="resume">Resume${named}</button>`,
        );
  const remove =
    workspace.personalOf === null
      ? rowForm(
          frame,
          `${PATH}/delete`,
          hidden,
          html`<label class="check"><input type="checkbox" name="confirm" value="on" required> Delete for good</label>
<button type="submit" class="danger small" data-action="delete">Delete${named}</button>`,
          'stack',
        )
      : html`<p class="hint">A personal workspace goes with its user.</p>`;
  return html`<details class="menu"><summary>Actions<span class="visually-hidden"> for ${workspace.slug}</span></summary>
<div class="menu-items wide">${suspend}${remove}</div></details>`;
}

/** Days of clicks the list shows, today included, as the overview's top workspaces. */
const CLICK_DAYS = 30;

/** Each listed workspace's links and clicks, and its broken links once link health counts them. */
interface Figures {
  counts: ReadonlyMap<number, WorkspaceFigures>;
  broken: ReadonlyMap<number, number> | undefined;
}

async function figuresOf(options: AdminPageOptions, workspaces: readonly Workspace[]): Promise<Figures> {
  const ids = workspaces.map((workspace) => workspace.id);
  const since = Math.floor(Date.now() / DAY_MS) - CLICK_DAYS + 1;
  const [counts, broken] = await Promise.all([
    options.store.workspaceFigures(ids, since),
    options.brokenLinks?.(ids),
  ]);
  return { counts, broken };
}

function figureCells(workspace: Workspace, figures: Figures): SafeHtml {
  const counts = figures.counts.get(workspace.id) ?? { links: 0, clicks: 0 };
  const broken = figures.broken
    ? html`<td data-label="Broken links" class="num" data-broken="${figures.broken.get(workspace.id) ?? 0}">${(figures.broken.get(workspace.id) ?? 0).toLocaleString('en-US')}</td>`
    : html``;
  return html`<td data-label="Links" class="num" data-links="${counts.links}">${counts.links.toLocaleString('en-US')}</td>
<td data-label="Clicks, 30 days" class="num" data-clicks="${counts.clicks}">${counts.clicks.toLocaleString('en-US')}</td>${broken}`;
}

function workspacesTable(
  frame: Frame,
  workspaces: readonly Workspace[],
  plans: readonly Plan[],
  q: string,
  figures: Figures,
): SafeHtml {
  if (workspaces.length === 0)
    return html`<p class="empty" data-state="no-workspaces">No workspace’s address or name contains that.</p>`;
  const rows = workspaces.map(
    (
      workspace,
    ) => html`<tr data-workspace="${workspace.slug}" data-plan="${workspace.plan.name}" data-suspended="${String(workspace.suspended !== null)}">
<td data-label="Workspace"><span class="truncate" title="${workspace.name}">${workspace.name}</span> <code>${workspace.slug}</code></td>
<td data-label="Kind">${workspace.personalOf === null ? 'team' : 'personal'}</td>
${figureCells(workspace, figures)}
<td data-label="Plan">${planForm(frame, workspace, plans, q)}</td>
<td data-label="Status">${state(workspace)}</td>
<td data-label="Created">${timeOf(workspace.createdAt)}</td>
<td class="actions">${actions(frame, workspace, q)}</td></tr>`,
  );
  return html`<div class="table-wrap"><table class="stacked"><caption class="visually-hidden">Workspaces</caption>
<thead><tr><th scope="col">Workspace</th><th scope="col">Kind</th><th scope="col" class="num">Links</th><th scope="col" class="num">Clicks, 30 days</th>${figures.broken ? html`<th scope="col" class="num">Broken links</th>` : html``}<th scope="col">Plan</th><th scope="col">Status</th><th scope="col">Created</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

/** The workspaces section of the console. */
export function workspacesSection(options: AdminPageOptions): Section {
  return {
    path: PATH,
    keep: ['q'],
    async render(user, fields, error) {
      const q = field(fields, 'q').trim();
      const [workspaces, plans] = await Promise.all([
        options.store.searchWorkspaces(q, PAGE_ROWS),
        options.store.listPlans(),
      ]);
      const figures = await figuresOf(options, workspaces);
      const frame = frameOf(user);
      return consolePage({
        title: 'Workspaces',
        path: PATH,
        frame,
        done: { code: doneOf(field(fields, 'done')), messages: DONE },
        error,
        body: html`<section class="card" aria-labelledby="workspaces-heading">
<h2 id="workspaces-heading">Workspaces <span class="hint" data-count="${workspaces.length}">${workspaces.length === PAGE_ROWS ? `the newest ${PAGE_ROWS}` : workspaces.length}</span></h2>
${searchForm(PATH, q, 'Address or name contains', 'acme')}
${workspacesTable(frame, workspaces, plans, q, figures)}
</section>`,
      });
    },
  };
}

/** The workspaces section's forms, each by the form's `slug`. */
export function workspaceActions(options: AdminPageOptions): Record<string, SectionAction> {
  const { store, abuse } = options;
  const { takedowns } = abuse;
  const slug = (body: unknown) => field(body, 'slug');
  return {
    async plan(body, actor) {
      const workspace = await store.findWorkspaceBySlug(slug(body));
      if (!workspace) throw new Refusal('no-such-workspace');
      const plan = (await store.listPlans()).find((p) => p.name === field(body, 'plan'));
      if (!plan) throw new Refusal('no-such-plan');
      if (plan.id === workspace.plan.id) return 'plan-unchanged';
      await store.setWorkspacePlan(workspace.id, plan.id);
      await abuse.audit.record(actor, {
        workspaceId: workspace.id,
        action: 'workspace.plan',
        target: workspace.slug,
        before: { plan: workspace.plan.name },
        after: { plan: plan.name },
      });
      return 'plan-changed';
    },
    async suspend(body, actor) {
      await takedowns.suspendWorkspace(actor, slug(body), field(body, 'reason'));
      return 'suspended';
    },
    async resume(body, actor) {
      await takedowns.resumeWorkspace(actor, slug(body));
      return 'resumed';
    },
    async delete(body, actor) {
      if (field(body, 'confirm') !== 'on') throw new Refusal('confirm-required');
      await takedowns.deleteWorkspace(actor, slug(body));
      return 'deleted';
    },
  };
}
