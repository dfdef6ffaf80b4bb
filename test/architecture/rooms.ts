import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** What the architecture tests share: where src/ is, its files, and the room each belongs to. */

export const SRC = resolve(import.meta.dirname, '..', '..', 'src');

/** The room a file of src/ belongs to: core, adapters, http, web, terminal, features/<name>, or the file itself. */
export function roomOf(path: string): string {
  const [top = '', second = ''] = path.split('/');
  if (top === 'features') return `features/${second}`;
  return top;
}

/** Every file under a folder whose name ends in one of the endings. */
export function sourceFiles(dir: string, endings: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path, endings);
    return endings.test(entry.name) ? [path] : [];
  });
}
