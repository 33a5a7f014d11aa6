// Local settings for `wrangler dev`: .dev.vars (gitignored) gets a random JWT_SECRET, so a fresh
// clone signs user tokens without anyone choosing a secret, the local webhook settings, and
// CORS_ORIGINS allowing the reference storefront's origin.
// Values already there are kept; missing ones are added.

import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { appendFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ROOT } from './wrangler.mjs';

export const DEV_VARS_FILE = path.join(ROOT, '.dev.vars');
/** Where `npm run storefront` serves the reference storefront by default (STOREFRONT_PORT 8790). */
export const STOREFRONT_ORIGINS = ['http://127.0.0.1:8790', 'http://localhost:8790'];

/** What .dev.vars gets, by name: each a function making its value (checked against src/config.ts by test/config.node.test.ts). */
export const DEV_VARS = {
  JWT_SECRET: () => randomBytes(32).toString('base64url'),
  // Local webhook receivers (npm run webhooks:listen) live on http://127.0.0.1.
  WEBHOOK_ALLOW_PRIVATE_URLS: () => 'true',
  // Retries start after 5 s locally, so a restarted listener catches up quickly.
  WEBHOOK_RETRY_BASE_SECONDS: () => '5',
  // Server-Timing and X-D1-* cost headers on every response.
  ENVIRONMENT: () => 'development',
  // The reference storefront (`npm run storefront`, examples/storefront) calls the API from its own origin.
  CORS_ORIGINS: () => STOREFRONT_ORIGINS.join(','),
};

/** Adds any missing local secret to .dev.vars; returns the names it added. */
export async function ensureDevVars() {
  const current = existsSync(DEV_VARS_FILE) ? await readFile(DEV_VARS_FILE, 'utf8') : '';
  const has = (name) => new RegExp(`^\\s*${name}\\s*=`, 'm').test(current);
  const added = Object.keys(DEV_VARS).filter((name) => !has(name));
  if (added.length) {
    const lines = added.map((name) => `${name}="${DEV_VARS[name]()}"`).join('\n');
    const header = current ? (current.endsWith('\n') ? '' : '\n') : '# Local secrets for wrangler dev (never committed). Created by npm run dev.\n';
    await appendFile(DEV_VARS_FILE, `${header}${lines}\n`, { mode: 0o600 });
  }
  return added;
}
