// The local admin login for the admin panel (http://localhost:8787/admin): one admin user, created
// once per local database, its password saved in .wrangler/dev-admin-login (gitignored) and printed
// by `npm run dev`. Passwords are hashed exactly as src/lib/password.ts does (PBKDF2-SHA-256).

import { pbkdf2Sync, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { newId } from './ids.mjs';
import { insertStatements, sqlString } from './sql.mjs';
import { ROOT } from './wrangler.mjs';

export const DEV_LOGIN_FILE = path.join(ROOT, '.wrangler', 'dev-admin-login');
export const DEV_ADMIN_EMAIL = 'admin@example.com';
const ITERATIONS = 100_000;

export function hashPassword(password) {
  const salt = randomBytes(16);
  const hash = pbkdf2Sync(password, salt, ITERATIONS, 32, 'sha256');
  return `pbkdf2-sha256$${ITERATIONS}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

/** `SELECT ... AS admins`: 1 when the local admin user exists. */
export const devAdminExistsSql = () => `SELECT count(*) AS admins FROM users WHERE email = ${sqlString(DEV_ADMIN_EMAIL)}`;

/** The saved login, or undefined. */
export async function readDevLogin(file = DEV_LOGIN_FILE) {
  try {
    const [email, password] = (await readFile(file, 'utf8')).split('\n').map((s) => s.trim());
    return email && password ? { email, password } : undefined;
  } catch (error) {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  }
}

export async function saveDevLogin(login, file = DEV_LOGIN_FILE) {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${login.email}\n${login.password}\n`, { encoding: 'utf8', mode: 0o600 });
  await chmod(file, 0o600).catch(() => {});
}

/**
 * What to run so that the saved login works: nothing when the user exists and its password was
 * saved; otherwise a new password, and the user created (or, when it exists but its password was
 * not saved, its password set anew, retiring its sessions and tokens).
 */
export function devAdminPlan(saved, exists, now = new Date()) {
  if (exists && saved) return { login: saved, sql: [] };
  const login = { email: DEV_ADMIN_EMAIL, password: randomBytes(12).toString('base64url') };
  const hash = hashPassword(login.password);
  const ts = now.toISOString();
  if (exists) {
    return {
      login,
      sql: [`UPDATE users SET password_hash = ${sqlString(hash)}, token_version = token_version + 1, updated_at = ${sqlString(ts)} WHERE email = ${sqlString(DEV_ADMIN_EMAIL)};`],
    };
  }
  const row = {
    id: newId('user', now.getTime()),
    email: DEV_ADMIN_EMAIL,
    name: 'Local admin',
    password_hash: hash,
    role_id: 'admin',
    status: 'active',
    token_version: 0,
    created_at: ts,
    updated_at: ts,
  };
  return { login, sql: insertStatements('users', [row]) };
}
