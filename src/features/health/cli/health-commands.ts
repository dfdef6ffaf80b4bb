import type { Link } from '../../../core/entities.ts';
import { Refusal } from '../../../core/errors.ts';
import type { LinkHealth } from '../../../core/link-health.ts';
import type { CommandCode } from '../../../terminal/command.ts';
import { healthResource } from '../../links/index.ts';
import type { HEALTH_FLAGS } from './health-usage.ts';

export interface HealthCliDeps {
  findLink(domainId: number, code: string): Promise<Link | undefined>;
  domainOf(host: string | undefined): Promise<number>;
  checkNow(link: Link): Promise<LinkHealth>;
}

export const HEALTH_COMMANDS: Readonly<Record<string, CommandCode<typeof HEALTH_FLAGS, HealthCliDeps>>> = {
  'link check': {
    run: async ({ args: [code = ''], values, findLink, domainOf, checkNow }) => {
      const link = await findLink(await domainOf(values.domain), code);
      if (!link) throw new Refusal('314', `no live link has the code "${code}"`);
      const health = healthResource({ health: await checkNow(link) });
      return { short_code: link.code, health };
    },
    text: (result) => {
      const health = result.health as Record<string, unknown>;
      return `${Object.entries(health)
        .map(([key, value]) => `${key}: ${value ?? '-'}`)
        .join('\n')}\n`;
    },
  },
};
