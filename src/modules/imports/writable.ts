import { D1_MAX_BOUND_PARAMETERS, overBoundLimit } from '../../db/bound-parameters';
import { createDb, type Database } from '../../db/client';
import { ApiError } from '../../lib/errors';
import { productCreation } from '../products';
import type { Names, Planned, ProductPlan } from './plan';

/** Why the store cannot write a product whose statements bind more than D1 takes; the consumer says the same of one D1 refused. */
export const TOO_MANY_VALUES = 'the store puts more values in one database statement than the database takes: a fault of the store, not of the file; report it';

/**
 * Takes out of `planned` every product the store could not write as D1 takes statements, each then a
 * failure of its first line, as a product the checks refused: the dry run and the real import both
 * plan through here (planImport), so a dry run cannot answer yes to a product whose write D1 would
 * refuse, and the real import never queues one.
 *
 * The check is the write's own: the very statements createProduct sends (productCreation, given
 * the plan's body and its references as planned), built and not sent, each binding at most D1's
 * 100 values. An update (applyPlan) sends statements of the same builders: one-row UPDATEs, and
 * inserts of at most the variants and category links a creation inserts. A statement's bound values
 * depend on how many rows it writes, not on what they hold (every column is bound, given or not),
 * so plans of the same shape are checked once: a file of 50,000 one-variant products builds one
 * product's statements.
 */
export function refuseUnwritable(db: Database, planned: Planned, names: Names, maxBoundParameters = D1_MAX_BOUND_PARAMETERS): void {
  // Built on a database of their own: the events they note are never sent, as they are never written.
  const scratch = createDb(db.$client);
  const byShape = new Map<string, string | undefined>();
  const writable: ProductPlan[] = [];
  for (const plan of planned.plans) {
    const shape = `${plan.body.variants?.length ?? 1}:${plan.body.categoryIds?.length ?? 0}`;
    let problem: string | undefined;
    try {
      if (!byShape.has(shape)) byShape.set(shape, tooWide(scratch, plan, names, maxBoundParameters));
      problem = byShape.get(shape);
    } catch (error) {
      // A body the write itself refuses (planning checks the same, so this is a safety net): of this plan, not of its shape.
      if (!(error instanceof ApiError)) throw error;
      problem = error.details.map((d) => d.message).join('; ') || error.message;
    }
    if (problem === undefined) {
      writable.push(plan);
      continue;
    }
    planned.failures.push({ line: plan.lines[0]!, column: 'row', reason: `could not be written: ${problem}` });
    planned.failedProducts++;
    planned.failedRows += plan.lines.length;
  }
  if (writable.length === planned.plans.length) return;
  planned.plans = writable;
  planned.failures.sort((a, b) => a.line - b.line);
}

/** TOO_MANY_VALUES when a statement that creates `plan`'s product binds more than D1 takes; undefined when D1 takes them all. */
function tooWide(db: Database, plan: ProductPlan, names: Names, maxBoundParameters: number): string | undefined {
  const ref = (id: string) => ({ id, name: id, slug: id });
  const refs = {
    currencies: names.currencies,
    brand: plan.body.brandId ? ref(plan.body.brandId) : null,
    vendor: plan.body.vendorId ? ref(plan.body.vendorId) : null,
    categories: (plan.body.categoryIds ?? []).map(ref),
  };
  const { statements } = productCreation(db, plan.body, refs, plan.handle ?? 'product', new Date());
  return overBoundLimit(statements, maxBoundParameters) ? TOO_MANY_VALUES : undefined;
}
