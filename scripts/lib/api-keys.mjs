// Admin API keys for the local database, minted exactly as src/modules/api-keys/api-key-format.ts does:
// `sk_` + 40 base62 characters; the database keeps only the lowercase hex SHA-256 and the first 11
// characters as a visible prefix.

import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { newId } from './ids.mjs';
import { insertStatements, sqlString } from './sql.mjs';
import { ROOT } from './wrangler.mjs';

export const API_KEY_PATTERN = /^sk_[0-9A-Za-z]{40}$/;
const PREFIX_LENGTH = 11;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Where `npm run dev` keeps its admin key (.wrangler/ is gitignored and holds the local state). */
export const DEV_KEY_FILE = path.join(ROOT, '.wrangler', 'dev-admin-key');

/** `length` base62 characters from crypto.randomBytes, without modulo bias (bytes >= 248 are rejected). */
export function randomBase62(length) {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248 && out.length < length) out += BASE62[b % 62];
    }
  }
  return out;
}

export function mintApiKey() {
  return `sk_${randomBase62(40)}`;
}

export function apiKeyPrefix(key) {
  return key.slice(0, PREFIX_LENGTH);
}

export function hashApiKey(key) {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The INSERT for a new key row (role 'admin' unless told otherwise). */
export function insertApiKeySql(key, { name, role = 'admin', permissions = [], now = new Date() }) {
  const ts = now.toISOString();
  const row = {
    id: newId('key', now.getTime()),
    name,
    prefix: apiKeyPrefix(key),
    key_hash: hashApiKey(key),
    role_id: role,
    permissions,
    created_at: ts,
    updated_at: ts,
  };
  return insertStatements('api_keys', [row]).join('\n');
}

/**
 * A SELECT of 1 when `key` is stored, not revoked and not expired, else 0, as column `usable`.
 * The hash is hex we computed, so it is safe to inline.
 */
export function keyUsableSql(key, now = new Date()) {
  return (
    `SELECT count(*) AS usable FROM api_keys WHERE key_hash = ${sqlString(hashApiKey(key))} ` +
    `AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ${sqlString(now.toISOString())})`
  );
}

/** The saved local dev key, or undefined when there is none (or the file does not hold a key). */
export async function readDevKey(file = DEV_KEY_FILE) {
  try {
    const key = (await readFile(file, 'utf8')).trim();
    return API_KEY_PATTERN.test(key) ? key : undefined;
  } catch (error) {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  }
}

export async function saveDevKey(key, file = DEV_KEY_FILE) {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${key}\n`, { encoding: 'utf8', mode: 0o600 });
  await chmod(file, 0o600).catch(() => {});
}
