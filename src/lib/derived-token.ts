/**
 * A token that is never stored: base64url of HMAC-SHA256(secret, purpose + id), derived from a
 * stored row's id with the server's JWT_SECRET whenever it is needed (43 characters, safe as is in
 * URLs and HTML). Knowing the id is worth nothing without the secret; `purpose` keeps the tokens of
 * different uses (and the JWTs signed with the same secret, whose input is never this) apart.
 */
import { ApiError } from './errors';
import { config, type Vars } from '../config';

const encoder = new TextEncoder();
const base64url = (bytes: ArrayBuffer) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

export async function derivedToken(secret: string, purpose: string, id: string): Promise<string> {
  return base64url(await derivedBytes(secret, purpose, id));
}

/** The 32 bytes a derived token encodes, for secrets spelled otherwise (a gift card's code). */
export async function derivedBytes(secret: string, purpose: string, id: string): Promise<ArrayBuffer> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return crypto.subtle.sign('HMAC', key, encoder.encode(purpose + id));
}

/** The secret derived tokens are made with; without one, `feature` (its links) cannot work. */
export function tokenSecret(env: Pick<Vars, 'JWT_SECRET'>, feature: string): string {
  const { JWT_SECRET } = config(env);
  if (!JWT_SECRET) throw new ApiError('INTERNAL_ERROR', `${feature} is not available: JWT_SECRET is not configured`);
  return JWT_SECRET;
}
