import { DAY_MS, dayText } from '../../core/days.ts';
import type { Workspace } from '../../core/entities.ts';
import { TRACKING_CHANGED } from '../../core/link-key.ts';
import { joinPorts, type Ports } from '../../core/ports/store.ts';
import { countriesOf } from '../../kernel/adapters.ts';
import type { Kernel } from '../../kernel/kernel.ts';
import { ClickIds } from './click-ids.ts';
import { FigureFolds } from './figure-folds.ts';
import { trackService } from './track.ts';

/** How often click ids, leads and invoices past the window are looked for. */
const SWEEP_EVERY_MS = 3_600_000;
/** How often leads and sales left pending (by a process killed before its fold) are folded. */
const FOLD_EVERY_MS = 10_000;

/**
 * Conversions of this process (docs/api.md §20): the click ids the redirect hands out, written in
 * batches like clicks (and on a graceful stop), the leads and sales merchants report, and the
 * hourly sweep of what the window no longer needs.
 */
export async function conversionServices(kernel: Kernel, ports: Pick<Ports, 'conversions' | 'secrets'>) {
  const { config } = kernel;
  const store = joinPorts(ports);
  const windowDays = config.conversionWindowDays;
  const clickIds = new ClickIds({
    store,
    countries: countriesOf(kernel),
    tracking: config.tracking,
    honorDnt: config.honorDnt,
    trustProxy: config.trustProxy,
    intervalMs: config.clickFlushMs,
    now: kernel.now,
    onError: kernel.log.error('writing click ids failed; kept for the next flush'),
  });
  const folds = new FigureFolds({
    store,
    onError: kernel.log.error('adding leads and sales to their figures failed; kept for the next fold'),
  });
  const track = trackService({
    folds,
    store,
    origins: (await kernel.use('domains')).registry,
    sink: async () => (await kernel.use('webhooks')).conversionSink,
    windowDays,
    now: kernel.now,
  });
  const onSweepError = kernel.log.error('deleting old conversion rows failed');
  const sweep = async (): Promise<number> => {
    const now = kernel.now();
    const today = Math.floor(now / DAY_MS);
    try {
      return await store.purgeConversions(dayText(today - windowDays), now - windowDays * DAY_MS);
    } catch (error) {
      onSweepError(error);
      return 0;
    }
  };
  let timer: NodeJS.Timeout | undefined;
  let foldTimer: NodeJS.Timeout | undefined;
  kernel.onStart(() => {
    timer = setInterval(() => void sweep(), SWEEP_EVERY_MS);
    timer.unref();
    void folds.fold();
    foldTimer = setInterval(() => void folds.fold(), FOLD_EVERY_MS);
    foldTimer.unref();
  });
  // What is held is written before the store closes.
  kernel.onClose(async () => {
    clearInterval(timer);
    clearInterval(foldTimer);
    await clickIds.close();
    await folds.fold();
  });
  /** The workspace's default for its links; every instance drops its cached links to see it. */
  const setTracking = async (workspace: Workspace, trackConversions: boolean): Promise<Workspace> => {
    if (workspace.trackConversions === trackConversions) return workspace;
    await store.setWorkspaceTracking(workspace.id, trackConversions);
    await kernel.linkEvents.changed(TRACKING_CHANGED);
    return { ...workspace, trackConversions };
  };
  return { clickIds, track, sweep, folds, windowDays, setTracking };
}

export type ConversionServices = Awaited<ReturnType<typeof conversionServices>>;
