import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { startTestApp, type TestApp, type TestAppOptions } from '../../helper.ts';

/** A test app on either store: SQLite always, PostgreSQL with TEST_DATABASE_URL (a database of its own). */

export interface StoreKind {
  name: string;
  skip: string | false;
  start(options?: TestAppOptions): Promise<TestApp>;
}

const databaseUrl = process.env.TEST_DATABASE_URL;

/** The PostgreSQL app's database is made for it and dropped on close. */
async function onPostgres(options: TestAppOptions = {}): Promise<TestApp> {
  const name = `snip_people_${randomBytes(5).toString('hex')}`;
  const admin = postgres(databaseUrl as string, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(databaseUrl as string);
  url.pathname = `/${name}`;
  const drop = async () => {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  };
  try {
    const t = await startTestApp({ ...options, env: { ...options.env, DATABASE_URL: url.href } });
    return {
      ...t,
      async close() {
        await t.close();
        await drop();
      },
    };
  } catch (error) {
    await drop();
    throw error;
  }
}

export const STORES: StoreKind[] = [
  { name: 'SQLite', skip: false, start: (options) => startTestApp(options) },
  {
    name: 'PostgreSQL',
    skip: databaseUrl ? false : 'TEST_DATABASE_URL is not set',
    start: onPostgres,
  },
];
