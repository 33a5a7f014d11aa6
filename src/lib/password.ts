import { timingSafeEqualBytes } from './crypto';

/**
 * Password hashing with PBKDF2-SHA-256 from Web Crypto. Deployed Workers refuse more than 100,000
 * iterations (local workerd accepts more, so only a test of this constant catches a raise). The
 * iteration count and salt are stored with each hash, so the count can change without breaking
 * existing passwords: `pbkdf2-sha256$<iterations>$<salt, base64>$<hash, base64>`.
 */
export const PBKDF2_ITERATIONS = 100_000;
export const MIN_PASSWORD_LENGTH = 8;
const SALT_BYTES = 16;
const HASH_BITS = 256;
const encoder = new TextEncoder();

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(password), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, key, HASH_BITS);
  return new Uint8Array(bits);
}

export async function hashPassword(password: string, iterations = PBKDF2_ITERATIONS): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, iterations);
  return `pbkdf2-sha256$${iterations}$${toBase64(salt)}$${toBase64(hash)}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, iterationsText, saltText, hashText] = stored.split('$');
  const iterations = Number(iterationsText);
  if (scheme !== 'pbkdf2-sha256' || !Number.isInteger(iterations) || iterations < 1 || !saltText || !hashText) return false;
  const expected = fromBase64(hashText);
  const actual = await derive(password, fromBase64(saltText), iterations);
  return timingSafeEqualBytes(actual, expected);
}

/**
 * A hash of a random password nobody kept, verified when an email is unknown so that the time a
 * login takes does not reveal which accounts exist.
 */
export const DECOY_HASH = 'pbkdf2-sha256$100000$X3zp3WMzXgpY7tpBAyztXw==$eAwncHQEXMQPbpGAyRDYDuZTyFcoOEu1LNq93cOpNSg=';
