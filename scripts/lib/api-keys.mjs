// API keys for the local database, minted exactly as src/middleware/credentials/api-key-format.ts does:
// `sk_` (secret) or `pk_` (publishable) + 40 base62 characters; the database keeps only the
// lowercase hex SHA-256 and the first 11 characters as a visible prefix.

import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { newId } from './ids.mjs';
import { insertStatements, sqlString } from './sql.mjs';
import { ROOT } from './wrangler.mjs';

export const API_KEY_PATTERN = /^sk_[0-9A-Za-z]{40}$/;
export const PUBLISHABLE_KEY_PATTERN = /^pk_[0-9A-Za-z]{40}$/;
const PREFIX_LENGTH = 11;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Where `npm run dev` keeps its admin key (.wrangler/ is gitignored and holds the local state). */
export const DEV_KEY_FILE = path.join(ROOT, '.wrangler', 'dev-admin-key');
/** Where `npm run dev` keeps the reference storefront's publishable key, read by `npm run storefront`. */
export const DEV_PUBLISHABLE_KEY_FILE = path.join(ROOT, '.wrangler', 'dev-publishable-key');

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

/** A new key: `sk_...` (secret) or, with 'publishable', `pk_...`. */
export function mintApiKey(type = 'secret') {
  return `${type === 'publishable' ? 'pk' : 'sk'}_${randomBase62(40)}`;
}

export function apiKeyPrefix(key) {
  return key.slice(0, PREFIX_LENGTH);
}

export function hashApiKey(key) {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/**
 * The INSERT for a new key row: a secret key of role 'admin' unless told otherwise, or (type
 * 'publishable') a key with no role nor permissions, usable from `allowedOrigins` only.
 */
export function insertApiKeySql(key, { name, role = 'admin', permissions = [], type = 'secret', allowedOrigins = [], now = new Date() }) {
  const ts = now.toISOString();
  const publishable = type === 'publishable';
  const row = {
    id: newId('key', now.getTime()),
    name,
    prefix: apiKeyPrefix(key),
    key_hash: hashApiKey(key),
    role_id: publishable ? null : role,
    permissions: publishable ? [] : permissions,
    // Only a publishable key names the columns of migration 0048, so secret keys insert as before it.
    ...(publishable ? { type, allowed_origins: allowedOrigins } : {}),
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

/**
 * A SELECT of 1 when `key` is a usable publishable key (as keyUsableSql) allowed from every one of
 * `origins`, else 0, as column `usable`.
 */
export function publishableKeyUsableSql(key, origins, now = new Date()) {
  const everyOrigin = origins.map((o) => ` AND EXISTS (SELECT 1 FROM json_each(allowed_origins) WHERE value = ${sqlString(o)})`).join('');
  return `${keyUsableSql(key, now)} AND type = 'publishable'${everyOrigin}`;
}

/** The saved local dev key, or undefined when there is none (or the file does not hold a key). */
export async function readDevKey(file = DEV_KEY_FILE, pattern = API_KEY_PATTERN) {
  try {
    const key = (await readFile(file, 'utf8')).trim();
    return pattern.test(key) ? key : undefined;
  } catch (error) {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The storefront's local publishable key saved by `npm run dev`, or undefined. */
export const readDevPublishableKey = (file = DEV_PUBLISHABLE_KEY_FILE) => readDevKey(file, PUBLISHABLE_KEY_PATTERN);

export async function saveDevKey(key, file = DEV_KEY_FILE) {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${key}\n`, { encoding: 'utf8', mode: 0o600 });
  await chmod(file, 0o600).catch(() => {});
}
