import { ApiError } from './errors';
import { PERMISSION_ACTIONS, PERMISSION_RESOURCES, SPECIAL_PERMISSIONS } from './permissions';

/**
 * Who may do what: the principal a request acts as, what its permissions grant, and the one grant
 * rule every path that creates or changes a credential, role or account applies (grantRule below).
 * It sits below the middleware so that auth, the services, the panel and lib/ all import it from here.
 */

/** Who is calling: nobody, an API key, or a signed-in user (customer, vendor user or admin user). */
export type Principal =
  /** No credential, or a publishable key (`pk_...`, named here), which reaches what no credential reaches. */
  | { kind: 'anonymous'; publishableKey?: string; apiVersion?: string }
  /** `apiVersion`: the version the key is pinned to (src/versions/), for requests that name none. */
  | { kind: 'api_key'; id: string; role: string | null; permissions: readonly string[]; vendorId: string | null; ownerId: string | null; apiVersion?: string }
  /** `email`: the account's, as read with the credential (absent for a key's owner judged as a user). */
  | { kind: 'user'; id: string; role: string; permissions: readonly string[]; vendorId: string | null; email?: string };

export const ANONYMOUS: Principal = { kind: 'anonymous' };

const NEEDS_CREDENTIAL = 'This endpoint needs a credential: Authorization: Bearer <API key or token>';

/**
 * The refusal where a credential is needed and the caller has none: 401, or 403 for a publishable
 * key, which is a credential, only not one for this.
 */
export function credentialNeeded(principal: Principal, message = NEEDS_CREDENTIAL): ApiError {
  if (principal.kind === 'anonymous' && principal.publishableKey) {
    return ApiError.forbidden("A publishable key reaches a shopper's operations only: this endpoint needs a secret key or a signed-in user");
  }
  return ApiError.unauthenticated(message);
}

const heldBy = (principal: Principal): readonly string[] => (principal.kind === 'anonymous' ? [] : principal.permissions);

function grants(held: readonly string[], resource: string, action: string): boolean {
  return held.some((p) => p === '*' || p === `${resource}:*` || p === `${resource}:${action}`);
}

/** A permission is `resource:action`; `resource:*` grants every action on one resource, `*` everything. */
export function hasPermission(principal: Principal, permission: string): boolean {
  const [resource = '', action = ''] = permission.split(':');
  return grants(heldBy(principal), resource, action);
}

/** True when the caller may see every status of a resource (drafts included), not just the public view. */
export function isStaff(principal: Principal, resource: string): boolean {
  return hasPermission(principal, `${resource}:read`) || hasPermission(principal, `${resource}:write`);
}

/** How records name who did something: `key:<id>` or `user:<id>`; null for an anonymous caller. */
export function principalRef(principal: Principal): string | null {
  if (principal.kind === 'anonymous') return null;
  return `${principal.kind === 'api_key' ? 'key' : 'user'}:${principal.id}`;
}

/** Who did something, for history rows (order history, stock adjustments): the principal, else `fallback`. */
export function actorRef(principal: Principal, fallback = 'system'): string {
  return principalRef(principal) ?? fallback;
}

/** The vendor a principal acts for (a vendor user, or a key of the vendor role): its reach is limited to that vendor's things. */
export function vendorScope(principal: Principal): string | null {
  return principal.kind === 'anonymous' ? null : principal.vendorId;
}

/** Every concrete `resource:action` there is: each resource with each action, and the special ones. */
const EVERY_PERMISSION: [string, string][] = [
  ...PERMISSION_RESOURCES.flatMap((r) => PERMISSION_ACTIONS.map((a): [string, string] => [r, a])),
  ...Object.entries(SPECIAL_PERMISSIONS).flatMap(([r, as]) => as.map((a): [string, string] => [r, a])),
];

/** Every concrete `resource:action` a permission stands for. */
function expand(permission: string): [string, string][] {
  if (permission === '*') return EVERY_PERMISSION;
  const [resource = '', action = ''] = permission.split(':');
  if (action !== '*') return [[resource, action]];
  const known = EVERY_PERMISSION.filter(([r]) => r === resource);
  return known.length ? known : [[resource, action]];
}

/** The entries of `wanted` that `held` does not fully cover (a wildcard is covered by holding every action it names). */
export function uncovered(held: readonly string[], wanted: readonly string[]): string[] {
  return wanted.filter((p) => !expand(p).every(([r, a]) => grants(held, r, a)));
}

/** What a grant path acts on: the permissions a role, user or key holds (or would hold), and its vendor. */
export interface Grantee {
  permissions: readonly string[];
  vendorId?: string | null;
}

/**
 * Why `actor` does not fully cover `target`, or undefined when it does. Covering means holding
 * every permission the target holds, and, for an actor scoped to a vendor, the target being scoped
 * to that same vendor (a vendor covers nothing outside its own shop).
 */
export function coverProblem(actor: Principal, target: Grantee): string | undefined {
  const missing = uncovered(heldBy(actor), target.permissions);
  if (missing.length) return `it lacks ${missing.join(', ')}`;
  const scope = vendorScope(actor);
  if (scope !== null && (target.vendorId ?? null) !== scope) return `it acts for vendor '${scope}' only`;
  return undefined;
}

export const covers = (actor: Principal, target: Grantee): boolean => coverProblem(actor, target) === undefined;

/** The grant rule in one sentence, for the OpenAPI descriptions of every path that applies it. */
export const GRANT_RULE =
  'The caller must cover what it creates, changes, assigns, disables, deletes, resets or revokes: hold every permission of the role, user or key, ' +
  "and, when it acts for a vendor, the target must be that vendor's (403 AUTHORIZATION_ERROR otherwise). Nobody changes its own role or permissions.";

/**
 * The grant rule, the one check of every path that creates, changes, assigns, disables, deletes,
 * resets or revokes a role, an account or an API key (API and admin panel alike): a principal may
 * only act on what it fully covers (coverProblem). `what` completes "This credential cannot ...".
 * 403 AUTHORIZATION_ERROR otherwise.
 */
export function assertCovers(actor: Principal, target: Grantee, what: string): void {
  const problem = coverProblem(actor, target);
  if (problem) throw ApiError.forbidden(`This credential cannot ${what}: ${problem}`);
}

/** The role a principal acts through (a user's role, a key's role), which it may never change itself. */
export const ownRole = (principal: Principal): string | null => (principal.kind === 'anonymous' ? null : principal.role);
