import { randomBase62, sha256Hex } from '../../lib/crypto';

/**
 * API keys look like `sk_` (secret) or `pk_` (publishable) + 40 base62 characters (238 bits). Only
 * their SHA-256 is stored; a key this random needs no slow hash. The first 11 characters are kept
 * as a visible prefix so a key can be recognised in a list. scripts/admin-key.mjs mints secret
 * keys the same way from Node.
 */
export const API_KEY_PREFIX = 'sk_';
export const API_KEY_PATTERN = /^sk_[0-9A-Za-z]{40}$/;
export const PUBLISHABLE_KEY_PREFIX = 'pk_';
export const PUBLISHABLE_KEY_PATTERN = /^pk_[0-9A-Za-z]{40}$/;
const PREFIX_LENGTH = 11;

export type ApiKeyType = 'secret' | 'publishable';

export function mintApiKey(type: ApiKeyType = 'secret'): string {
  return `${type === 'publishable' ? PUBLISHABLE_KEY_PREFIX : API_KEY_PREFIX}${randomBase62(40)}`;
}

export function apiKeyPrefix(key: string): string {
  return key.slice(0, PREFIX_LENGTH);
}

export const hashApiKey = sha256Hex;
