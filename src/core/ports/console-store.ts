import type { Link } from '../entities.ts';

/**
 * The operator console's figures (docs/api.md §22): each one read of the store, along an index, on
 * both adapters. Days count UTC days since 1970-01-01, as the daily click tables do.
 */

export interface ConsoleTotals {
  users: number;
  workspaces: number;
  /** Live links, from each workspace's counter. */
  links: number;
  clicksToday: number;
  /** Today and the 6 days before. */
  clicks7Days: number;
  /** Today and the 29 days before. */
  clicks30Days: number;
}

/** How many things happened on one day; days with none are left out. */
export interface DayCount {
  day: number;
  count: number;
}

/** A workspace as the console names it beside a link, a report or a figure. */
export interface ConsoleWorkspace {
  id: number;
  slug: string;
  name: string;
  suspended: boolean;
  /** Its personal user's email, else its first owner's; null when it has none left. */
  owner: string | null;
}

export interface ConsoleLink {
  link: Link;
  workspace: ConsoleWorkspace;
}

export interface WorkspaceFigures {
  /** Live links. */
  links: number;
  /** Human clicks from the day asked on. */
  clicks: number;
}

export interface WorkspaceClicks {
  workspace: ConsoleWorkspace;
  clicks: number;
}

export interface ConsoleStore {
  /** Users, workspaces, links and the clicks of the last 1, 7 and 30 days up to `today`. */
  consoleTotals(today: number): Promise<ConsoleTotals>;
  /** Sign-ups per day from `fromDay` on. */
  signupsPerDay(fromDay: number): Promise<DayCount[]>;
  /** Links made per day from `fromDay` on (deleted since or not). */
  newLinksPerDay(fromDay: number): Promise<DayCount[]>;
  /** The newest live links across every workspace, with their workspace and its owner. */
  newestLinks(limit: number): Promise<ConsoleLink[]>;
  /** These live links, with their workspace and its owner; deleted or unknown ids left out. */
  consoleLinks(ids: readonly number[]): Promise<ConsoleLink[]>;
  /** The workspaces with the most clicks from `fromDay` on, most first. */
  topWorkspacesByClicks(fromDay: number, limit: number): Promise<WorkspaceClicks[]>;
  /** Links of each of these workspaces, and their clicks from `fromDay` on, by id. */
  workspaceFigures(ids: readonly number[], fromDay: number): Promise<Map<number, WorkspaceFigures>>;
}
