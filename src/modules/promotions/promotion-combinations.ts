import type { Promotion } from './promotion-types';

/**
 * Which of the promotions whose conditions hold apply together (docs/promotions.md, "Combinations"):
 * among the sets in which every two promotions may combine, the one that takes the most off the
 * cart. This is what makes "the better one applies" true of a non-combinable promotion and a code.
 */

/** The order promotions apply in: higher priority first, then by id. */
export function applicationOrder(a: Promotion, b: Promotion): number {
  return b.priority - a.priority || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Whether each of the two allows the other's kind: a code, or an automatic promotion. */
export function combine(a: Promotion, b: Promotion): boolean {
  const allows = (x: Promotion, y: Promotion) => (y.code === null ? x.combinesWithPromotions : x.combinesWithCodes);
  return allows(a, b) && allows(b, a);
}

/** Past this many promotions in conflict, sets are no longer all weighed: see `greedy`. */
export const MAX_WEIGHED_CONFLICTS = 12;

/**
 * The set to apply, in application order. `candidates` are in application order; `totalOf` is what
 * a set takes off the cart. Promotions that combine with every other candidate are in every set;
 * the others are weighed in every allowed combination. Ties go to the larger set, then to the set
 * whose members come first in application order.
 */
export function bestCombination(candidates: readonly Promotion[], totalOf: (set: Promotion[]) => number): Promotion[] {
  const free = candidates.map((p) => candidates.every((q) => q === p || combine(p, q)));
  const conflicting = candidates.map((_, i) => i).filter((i) => !free[i]);
  if (conflicting.length > MAX_WEIGHED_CONFLICTS) return greedy(candidates);
  let best: { members: number[]; total: number } | null = null;
  for (let mask = 0; mask < 2 ** conflicting.length; mask++) {
    const chosen = new Set(conflicting.filter((_, bit) => mask & (1 << bit)));
    const members = candidates.map((_, i) => i).filter((i) => free[i] || chosen.has(i));
    const allowed = members.every((i) => members.every((j) => i >= j || combine(candidates[i]!, candidates[j]!)));
    if (!allowed) continue;
    const total = totalOf(members.map((i) => candidates[i]!));
    if (!best || total > best.total || (total === best.total && preferred(members, best.members))) best = { members, total };
  }
  return (best?.members ?? []).map((i) => candidates[i]!);
}

/** True when `a` wins a tie against `b`: more members, else the first member that differs comes earlier. */
function preferred(a: number[], b: number[]): boolean {
  if (a.length !== b.length) return a.length > b.length;
  const at = a.findIndex((i, k) => i !== b[k]);
  return at >= 0 && a[at]! < b[at]!;
}

/** Too many conflicts to weigh every set: each candidate in application order joins if it combines with those taken. */
function greedy(candidates: readonly Promotion[]): Promotion[] {
  const taken: Promotion[] = [];
  for (const p of candidates) if (taken.every((q) => combine(p, q))) taken.push(p);
  return taken;
}
