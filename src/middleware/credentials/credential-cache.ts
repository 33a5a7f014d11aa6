import type { Principal } from '../../lib/access';
import type { CredentialRider } from '../../d1/verified';
import { keptPerIsolate } from '../../lib/isolate-state';

/**
 * Credentials (API keys, user tokens) this isolate confirmed in the last minute, with the row their
 * check read then. A request presenting one runs at once on the cached principal while the
 * credential's check rides in the request's first D1 batch (credentialRider, src/d1/verified.ts):
 * as a read beside a read-only batch, as a guard statement at the head of a batch that writes (it
 * aborts the batch if the credential changed since). So a cached credential costs no round trip of
 * its own, and `POST /api/orders` with kept quote inputs is one round trip in all. A credential
 * revoked or changed a moment ago is still refused on that very request: nothing it wrote commits,
 * and the request is answered again from scratch (src/middleware/rate-limit.ts).
 */
export class ConfirmedCredentials<Row> {
  static readonly CONFIRMED_MS = 60_000;
  static readonly MAX = 1000;
  private readonly confirmed = new Map<string, { principal: Principal; row: Row; at: number }>();

  constructor() {
    keptPerIsolate(() => this.confirmed.clear());
  }

  remember(id: string, principal: Principal, row: Row, now = Date.now()) {
    this.confirmed.delete(id);
    if (this.confirmed.size >= ConfirmedCredentials.MAX) this.confirmed.delete(this.confirmed.keys().next().value!);
    this.confirmed.set(id, { principal, row, at: now });
  }

  forget(id: string) {
    this.confirmed.delete(id);
  }

  /** The entry confirmed within the last minute (its `row` may be updated in place). */
  get(id: string, now = Date.now()) {
    const found = this.confirmed.get(id);
    return found && now - found.at < ConfirmedCredentials.CONFIRMED_MS ? found : undefined;
  }
}

/** Principals compare by value: a cached one is good only while the check reads the same one. */
export const samePrincipal = (a: Principal, b: Principal) => JSON.stringify(a) === JSON.stringify(b);

/** A request's credential taken from a cache: its principal, the bucket it is counted on, its check, and how to drop it once stale. */
export interface OptimisticCredential {
  bucket: string;
  principal: Principal;
  verify: CredentialRider;
  forget(): void;
}
