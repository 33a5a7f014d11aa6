// Local settings for `wrangler dev`: .dev.vars (gitignored) gets a random JWT_SECRET, so a fresh
// clone signs user tokens without anyone choosing a secret, the local webhook settings, and
// CORS_ORIGINS allowing the reference storefront's origin.
// Values already there are kept; missing ones are added, and CORS_ORIGINS gains the storefront's
// origins when STOREFRONT_PORT names another port than before.

import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ROOT } from './wrangler.mjs';

export const DEV_VARS_FILE = path.join(ROOT, '.dev.vars');
/** Where `npm run storefront` serves the reference storefront: STOREFRONT_PORT, 8790 by default. */
export const DEFAULT_STOREFRONT_PORT = 8790;
export const storefrontOriginsOf = (port) => [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
/** The origins `npm run dev` allows the storefront from (CORS and its publishable key): the default port's, and STOREFRONT_PORT's when set. */
export const STOREFRONT_ORIGINS = [...new Set([...storefrontOriginsOf(DEFAULT_STOREFRONT_PORT), ...storefrontOriginsOf(process.env.STOREFRONT_PORT ?? DEFAULT_STOREFRONT_PORT)])];

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

/** The origins CORS_ORIGINS in .dev.vars allows (empty when there is none). */
export async function devCorsOrigins() {
  const current = existsSync(DEV_VARS_FILE) ? await readFile(DEV_VARS_FILE, 'utf8') : '';
  return corsOriginsIn(current);
}

const CORS_LINE = /^\s*CORS_ORIGINS\s*=\s*"?([^"\n]*)"?\s*$/m;
const corsOriginsIn = (text) =>
  (CORS_LINE.exec(text)?.[1] ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);

/** Adds any missing local secret to .dev.vars, and the storefront's origins to CORS_ORIGINS; returns the names it added or changed. */
export async function ensureDevVars() {
  let current = existsSync(DEV_VARS_FILE) ? await readFile(DEV_VARS_FILE, 'utf8') : '';
  const changed = [];
  const allowed = corsOriginsIn(current);
  if (CORS_LINE.test(current) && STOREFRONT_ORIGINS.some((origin) => !allowed.includes(origin))) {
    current = current.replace(CORS_LINE, `CORS_ORIGINS="${[...new Set([...allowed, ...STOREFRONT_ORIGINS])].join(',')}"`);
    await writeFile(DEV_VARS_FILE, current, { mode: 0o600 });
    changed.push('CORS_ORIGINS');
  }
  const has = (name) => new RegExp(`^\\s*${name}\\s*=`, 'm').test(current);
  const added = Object.keys(DEV_VARS).filter((name) => !has(name));
  if (added.length) {
    const lines = added.map((name) => `${name}="${DEV_VARS[name]()}"`).join('\n');
    const header = current ? (current.endsWith('\n') ? '' : '\n') : '# Local secrets for wrangler dev (never committed). Created by npm run dev.\n';
    await appendFile(DEV_VARS_FILE, `${header}${lines}\n`, { mode: 0o600 });
  }
  return [...changed, ...added];
}
