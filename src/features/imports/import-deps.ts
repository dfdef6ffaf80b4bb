import type { Inspector } from '../../core/ports/inspector.ts';
import { joinPorts } from '../../core/ports/store.ts';
import type { Given } from '../../kernel/feature.ts';
import type { ImportCliDeps } from './import-command.ts';

/** `link import --no-inspect`: every target passes unfetched, its title only what the file gives. */
const ACCEPT_UNFETCHED: Inspector = {
  inspect: async (url) => ({ ok: true, title: '', finalUrl: url.href, status: 200 }),
  close: async () => {},
};

/** The API's create service, acting for a workspace as an import does: no key, no hourly window, no events. */
export async function importCliDeps({
  kernel,
  ports,
}: Given<'accounts' | 'groups' | 'links'>): Promise<ImportCliDeps> {
  return {
    store: joinPorts(ports),
    withLinkCreator: async (options, use) => {
      const { creator } = await kernel.use('links');
      const inspector = options.inspect ? undefined : ACCEPT_UNFETCHED;
      return use(creator({ inspector, quiet: true }).createAs);
    },
  };
}
