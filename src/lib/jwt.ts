import { sign, verify } from 'hono/jwt';
import { config, type Vars } from '../config';

/** The one algorithm tokens are signed and verified with; pinned on both sides so `alg: none` or an RS/HS swap never passes. */
export const JWT_ALGORITHM = 'HS256';
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
export function tokenForUser(env: Pick<Vars, 'JWT_SECRET' | 'JWT_TTL_SECONDS'>, user: { id: string; tokenVersion: number }) {
  const { JWT_SECRET, JWT_TTL_SECONDS } = config(env);
  if (!JWT_SECRET) throw new Error('JWT_SECRET is not configured');
  return signUserToken(user.id, user.tokenVersion, JWT_SECRET, JWT_TTL_SECONDS);
}
