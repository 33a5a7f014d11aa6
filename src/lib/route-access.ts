import { credentialNeeded, hasPermission, type Principal, vendorScope } from './access';
import { ApiError } from './errors';
import { permissionProblem } from './permissions';

/**
 * Who may call an operation, declared once on its route (`apiRoute({ policy: { access } })`): the
 * OpenAPI `security`, the `x-access` extension and the guard that runs before the handler are all
 * derived from it (the guard in src/middleware/access-guard.ts), and test/http/access-sweep.test.ts calls every operation as every kind of caller
 * against it. docs/architecture.md, "Access".
 *
 * - `none`: reads no credential at all (health, the API index, a provider's webhook, media bytes).
 * - `public`: anyone, a publishable key and any valid credential; `reach` names what a caller sees
 *   when that depends on who it is (a cart by its token, drafts for staff).
 * - `permission`: a credential holding one of `anyOf`. A principal acting for a vendor is refused
 *   (403) unless `vendor: 'scoped'` says the handler limits it to its vendor's rows.
 * - `credential`: any credential (a signed-in user or a secret key); the handler decides by row,
 *   as `reach` says (a customer's own orders, a vendor's own lines, staff holding a permission).
 * - `user`: a signed-in user only (an API key acts for no one); `reach` as above.
 */
export type RouteAccess =
  | { kind: 'none' }
  | { kind: 'public'; reach?: string }
  | { kind: 'permission'; anyOf: readonly string[]; vendor: 'scoped' | 'refused' }
  | { kind: 'credential'; reach: string }
  | { kind: 'user'; reach: string };

export const access = {
  none: (): RouteAccess => ({ kind: 'none' }),
  public: (reach?: string): RouteAccess => ({ kind: 'public', ...(reach ? { reach } : {}) }),
  /** `permission`, or any of `also` beside it; `vendor: 'scoped'` where the handler limits a vendor to its own rows. */
  permission: (permission: string, options: { also?: readonly string[]; vendor?: 'scoped' } = {}): RouteAccess => {
    const anyOf = [permission, ...(options.also ?? [])];
    for (const p of anyOf) {
      const problem = permissionProblem(p);
      if (problem) throw new Error(`access.permission: ${problem}`);
    }
    return { kind: 'permission', anyOf, vendor: options.vendor ?? 'refused' };
  },
  credential: (reach: string): RouteAccess => ({ kind: 'credential', reach }),
  user: (reach: string): RouteAccess => ({ kind: 'user', reach }),
};

type SecurityRequirement = Record<string, string[]>;

/** The OpenAPI `security` of an access: what the document's readers and the client generators see. */
export function securityOf(declared: RouteAccess): SecurityRequirement[] {
  if (declared.kind === 'none') return [];
  if (declared.kind === 'public') return [{}, { publishableKey: [] }, { bearerAuth: [] }];
  return [{ bearerAuth: [] }];
}

/** `x-access`: the declaration as data, for programs (the sweep, the clients' docs). */
export function accessExtension(declared: RouteAccess): Record<string, unknown> {
  return { ...declared, ...('anyOf' in declared ? { anyOf: [...declared.anyOf] } : {}) };
}

/** The sentence an operation's description gets, so a reader sees who may call it without reading x-access. */
export function accessNote(declared: RouteAccess): string {
  switch (declared.kind) {
    case 'none':
      return '';
    case 'public':
      return declared.reach ? `Anyone may call it; ${declared.reach}` : '';
    case 'permission': {
      const needs = declared.anyOf.map((p) => `\`${p}\``).join(' or ');
      return `Needs ${needs}${declared.vendor === 'scoped' ? "; a vendor's credential reaches only its own vendor's rows." : "; a vendor's credential is refused."}`;
    }
    case 'credential':
      return `Needs a credential: ${declared.reach}`;
    case 'user':
      return `Needs a signed-in user (an API key acts for no one): ${declared.reach}`;
  }
}

/** Why `principal` may not call an operation of this access, or undefined when it may (the row-level reach is the handler's). */
export function accessRefusal(declared: RouteAccess, principal: Principal): ApiError | undefined {
  if (declared.kind === 'none' || declared.kind === 'public') return undefined;
  if (principal.kind === 'anonymous') {
    if (declared.kind === 'user') return credentialNeeded(principal, 'This endpoint needs a signed-in user: Authorization: Bearer <token from POST /api/auth/login>');
    return credentialNeeded(principal);
  }
  if (declared.kind === 'user' && principal.kind !== 'user') return ApiError.forbidden('This endpoint is for signed-in users; an API key acts for no user');
  if (declared.kind !== 'permission') return undefined;
  if (!declared.anyOf.some((p) => hasPermission(principal, p))) {
    return ApiError.forbidden(`This credential lacks the ${declared.anyOf.map((p) => `'${p}'`).join(' (or ')}${declared.anyOf.length > 1 ? ')' : ''} permission`);
  }
  const vendorId = vendorScope(principal);
  if (vendorId && declared.vendor === 'refused') return ApiError.forbidden(`This credential acts for vendor '${vendorId}', and this endpoint is not scoped to a vendor`);
  return undefined;
}
