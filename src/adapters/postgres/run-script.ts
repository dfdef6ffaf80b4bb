/** Runs the dialect-neutral store scripts (adapters/sql/script.ts) on PostgreSQL. */
import { driveAsync, type Script, type ScriptRunner, type Step } from '../sql/script.ts';
import { type Db, numbered, type Queryable, query, transaction } from './client.ts';

const texts = new Map<string, string>();
const text = (sql: string) => {
  let found = texts.get(sql);
  if (found === undefined) {
    found = numbered(sql);
    texts.set(sql, found);
  }
  return found;
};
const exec = (on: Queryable) => (step: Step) => {
  const { sql, params } = 'lock' in step ? step.lock : step;
  return query(on, text(sql), params);
};

/** Runs a script inside the transaction the caller holds open. */
export function runIn<T>(tx: Queryable, script: Script<T>): Promise<T> {
  return driveAsync(script, exec(tx));
}

export function postgresScripts(db: Db): ScriptRunner {
  return {
    read<T>(script: Script<T>) {
      return driveAsync(script, exec(db));
    },
    write<T>(script: Script<T>) {
      return transaction(db, (tx) => driveAsync(script, exec(tx)));
    },
  };
}
