// A Worker as after `npm run dev`, for the tests that run the documentation's examples
// (e2e/readme.e2e.mjs, e2e/docs.e2e.mjs): `wrangler dev` on a free port of 127.0.0.1, with its own
// state, the migrations applied, the demo catalogue of scripts/seed-data.mjs and an admin key saved
// in `<home>/.wrangler/dev-admin-key`, where `home` stands for the repository's directory the docs
// run their commands in. The Worker's D1 lives in `<home>/.wrangler/state`, so the developer's own
// .wrangler state is never touched.
//
// Seeding costs a few wrangler calls, so it is done once into a template (prepareSeededHome) that
// each Worker copies (startSeededWorker({ template })).

import { randomBytes } from 'node:crypto';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { insertApiKeySql, mintApiKey } from '../scripts/lib/api-keys.mjs';
import { applyMigrations, runBatch, withLocalD1 } from '../scripts/lib/local-d1.mjs';
import { buildSeedStatements } from '../scripts/seed-data.mjs';
import { startWranglerDev } from './server.mjs';

const stateOf = (home) => path.join(home, '.wrangler', 'state');

/** A new directory holding `.wrangler/state` (migrated and seeded) and `.wrangler/dev-admin-key`. */
export async function prepareSeededHome(label = 'docs') {
  const home = await mkdtemp(path.join(tmpdir(), `store-${label}-home-`));
  const state = stateOf(home);
  await mkdir(state, { recursive: true });
  // What `npm run dev` does to a new database, in one runtime as it does (scripts/lib/local-d1.mjs):
  // the migrations, the demo catalogue and an admin key in .wrangler/dev-admin-key.
  const key = mintApiKey();
  await withLocalD1(
    async (db) => {
      await applyMigrations(db);
      await runBatch(db, [...buildSeedStatements(), insertApiKeySql(key, { name: 'Local development', role: 'admin' })], `Seeding (${label})`);
    },
    { persistTo: state },
  );
  await writeFile(path.join(home, '.wrangler', 'dev-admin-key'), `${key}\n`, 'utf8');
  return home;
}

/**
 * Starts `wrangler dev` on a seeded home: a copy of `template` (from prepareSeededHome), or a new one.
 * Resolves { base, port, home, key, output, stop() }; stop() ends the Worker and removes the home.
 */
export async function startSeededWorker({ template, label = 'docs', vars: extraVars = {} } = {}) {
  let home;
  if (template) {
    home = await mkdtemp(path.join(tmpdir(), `store-${label}-home-`));
    await cp(template, home, { recursive: true });
  } else {
    home = await prepareSeededHome(label);
  }
  const key = (await readFile(path.join(home, '.wrangler', 'dev-admin-key'), 'utf8')).trim();
  const vars = { ENVIRONMENT: 'development', JWT_SECRET: randomBytes(32).toString('base64url'), ...extraVars };
  let worker;
  try {
    worker = await startWranglerDev({ state: stateOf(home), vars });
  } catch (error) {
    await rm(home, { recursive: true, force: true });
    throw error;
  }
  const stop = async () => {
    await worker.stop();
    await rm(home, { recursive: true, force: true });
  };
  return { base: worker.base, port: worker.port, home, key, output: worker.output, stop };
}
