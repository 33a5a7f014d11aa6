import { sign, verify } from 'hono/jwt';
import { numberSetting } from '../env';

/** The one algorithm tokens are signed and verified with; pinned on both sides so `alg: none` or an RS/HS swap never passes. */
export const JWT_ALGORITHM = 'HS256';
export const DEFAULT_TOKEN_TTL_SECONDS = 24 * 60 * 60;
const ISSUER = 'store-api';

export interface TokenClaims {
  /** The user's id. */
  sub: string;
  /** The user's token version; a password change bumps it and retires older tokens. */
  ver: number;
  iat: number;
  exp: number;
  iss: string;
}

export async function signUserToken(userId: string, tokenVersion: number, secret: string, ttlSeconds: number, nowMs = Date.now()) {
  const iat = Math.floor(nowMs / 1000);
  const claims: TokenClaims = { sub: userId, ver: tokenVersion, iat, exp: iat + ttlSeconds, iss: ISSUER };
  return { token: await sign({ ...claims }, secret, JWT_ALGORITHM), expiresIn: ttlSeconds };
}

/** The claims of a valid token, or null for any token that is malformed, tampered, expired or not ours. */
export async function verifyUserToken(token: string, secret: string): Promise<TokenClaims | null> {
  try {
    const payload = await verify(token, secret, { alg: JWT_ALGORITHM, iss: ISSUER });
    const { sub, ver, iat, exp } = payload as Partial<TokenClaims>;
    // `exp` is optional to the library; a token without one must not live forever.
    if (typeof sub !== 'string' || typeof ver !== 'number' || typeof iat !== 'number' || typeof exp !== 'number') return null;
    return payload as unknown as TokenClaims;
  } catch {
    return null;
  }
}

/** A token for this user, signed with the configured secret and lifetime. */
export function tokenForUser(env: { JWT_SECRET?: string; JWT_TTL_SECONDS?: string }, user: { id: string; tokenVersion: number }) {
  if (!env.JWT_SECRET) throw new Error('JWT_SECRET is not configured');
  return signUserToken(user.id, user.tokenVersion, env.JWT_SECRET, numberSetting(env.JWT_TTL_SECONDS, DEFAULT_TOKEN_TTL_SECONDS));
}
