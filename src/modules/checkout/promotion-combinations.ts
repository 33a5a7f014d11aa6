import type { Promotion } from './promotion-types';

/**
 * Which of the promotions whose conditions hold apply together (docs/promotions.md, "Combinations"):
 * among the sets in which every two promotions may combine and that no other could join, the one
 * that takes the most off the cart. This is what makes "the better one applies" true of a
 * non-combinable promotion and a code.
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

/** Past this many promotions in conflict, sets are no longer all weighed (there could be thousands): see `greedy`. */
export const MAX_WEIGHED_CONFLICTS = 12;

/**
 * The set to apply, in application order. `candidates` are in application order; `totalOf` is what
 * a set takes off the cart. Promotions that combine with every other candidate are in every set;
 * the others are weighed in every allowed combination that no other candidate could join. Ties go
 * to the larger set, then to the set whose members come first in application order.
 */
export function bestCombination(candidates: readonly Promotion[], totalOf: (set: Promotion[]) => number): Promotion[] {
  const combines = candidates.map((p) => candidates.map((q) => p === q || combine(p, q)));
  const free = combines.map((row) => row.every(Boolean));
  const conflicting = candidates.map((_, i) => i).filter((i) => !free[i]);
  if (conflicting.length > MAX_WEIGHED_CONFLICTS) return greedy(candidates, combines, totalOf);
  let best = null as { members: number[]; total: number } | null;
  /** Every allowed set: each conflicting candidate in turn, taken (when it combines with those taken) or left. */
  const visit = (k: number, taken: number[]) => {
    if (k === conflicting.length) {
      // Only sets no other candidate could join are weighed: one more promotion takes more off (rounding aside), and there are far fewer.
      if (conflicting.some((i) => !taken.includes(i) && taken.every((j) => combines[i]![j]))) return;
      const members = candidates.map((_, i) => i).filter((i) => free[i] || taken.includes(i));
      const total = totalOf(members.map((i) => candidates[i]!));
      if (!best || total > best.total || (total === best.total && preferred(members, best.members))) best = { members, total };
      return;
    }
    const i = conflicting[k]!;
    if (taken.every((j) => combines[i]![j])) visit(k + 1, [...taken, i]);
    visit(k + 1, taken);
  };
  visit(0, []);
  return (best?.members ?? []).map((i) => candidates[i]!);
}

/** True when `a` wins a tie against `b`: more members, else the first member that differs comes earlier. */
function preferred(a: number[], b: number[]): boolean {
  if (a.length !== b.length) return a.length > b.length;
  const at = a.findIndex((i, k) => i !== b[k]);
  return at >= 0 && a[at]! < b[at]!;
}

/**
 * Too many conflicts to weigh every set: the candidates, from the one that takes most off alone
 * (ties: application order), each join if they combine with those taken.
 */
function greedy(candidates: readonly Promotion[], combines: boolean[][], totalOf: (set: Promotion[]) => number): Promotion[] {
  const alone = candidates.map((p) => totalOf([p]));
  const byValue = candidates.map((_, i) => i).sort((i, j) => alone[j]! - alone[i]! || i - j);
  const taken: number[] = [];
  for (const i of byValue) if (taken.every((j) => combines[i]![j])) taken.push(i);
  return taken.sort((i, j) => i - j).map((i) => candidates[i]!);
}
