import { and, eq, sql } from 'drizzle-orm';
import { createDb, type Database } from '../db/client';
import { importChunks, importFailures, imports } from '../db/schema';
import type { Bindings } from '../env';
import { auditedD1 } from '../d1/audit';
import { coverProblem, type Principal } from '../lib/access';
import { ApiError } from '../lib/errors';
import { takeNotedEvents } from '../lib/events';
import { applyPlan, type Outcome } from '../modules/imports/apply';
import type { ImportMessage } from '../modules/imports/imports.service';
import type { Failure, ProductPlan } from '../modules/imports/plan';
import { recordedPrincipal } from '../middleware/auth';
import { sendEvents } from '../webhooks/messages';
import { log } from './each-message';

/**
 * The `product-imports` consumer: one message is one chunk of an import's validated products
 * (src/modules/imports/). Each product is written in its own D1 batch (applyPlan), so a product
 * the store refuses (a SKU another product took meanwhile) fails alone and whole. The chunk's
 * counts and failures are then added to the import in ONE batch that also deletes the chunk, and
 * only if the chunk is still there: a retried message never counts twice. Writes are audited as
 * the user or key that started the import.
 */
export async function importBatch(batch: MessageBatch<ImportMessage>, env: Bindings): Promise<void> {
  for (const message of batch.messages) {
    try {
      await importChunk(env, message.body);
      message.ack();
    } catch (error) {
      log('error', 'an import chunk failed', { importId: message.body?.importId, chunk: message.body?.n, attempts: message.attempts, error: String(error) });
      if (message.attempts <= IMPORT_MAX_RETRIES) {
        message.retry({ delaySeconds: Math.min(60, 2 ** message.attempts) });
        continue;
      }
      // The last try: its products are counted failed, so the import completes and says why, instead of waiting for ever.
      await failChunk(env, message.body, error).then(
        () => message.ack(),
        () => message.retry(),
      );
    }
  }
}

/** `max_retries` of the product-imports consumer in wrangler.toml (keep the two in step). */
export const IMPORT_MAX_RETRIES = 5;

async function failChunk(env: Bindings, { importId, n }: ImportMessage, error: unknown): Promise<void> {
  const db = createDb(env.DB);
  const [chunk] = await db
    .select()
    .from(importChunks)
    .where(and(eq(importChunks.importId, importId), eq(importChunks.n, n)));
  if (!chunk) return;
  const plans = chunk.plans as ProductPlan[];
  const reason = `could not be written (${String((error as Error)?.message ?? error).slice(0, 200)}): import the file again to retry it`;
  await countChunk(db, importId, n, {
    rows: plans.reduce((sum, plan) => sum + plan.lines.length, 0),
    counts: { created: 0, updated: 0, unchanged: 0, failed: plans.length },
    failures: plans.map((plan) => ({ line: plan.lines[0]!, column: 'row', reason })),
  });
}

async function importChunk(env: Bindings, { importId, n }: ImportMessage): Promise<void> {
  const plain = createDb(env.DB);
  const [[job], [chunk]] = await plain.batch([
    plain.select().from(imports).where(eq(imports.id, importId)),
    plain
      .select()
      .from(importChunks)
      .where(and(eq(importChunks.importId, importId), eq(importChunks.n, n))),
  ]);
  if (!job || !chunk) return; // counted already (a redelivery), or an import that is gone (or stopped)
  const stop = await actorProblem(plain, job);
  if (stop) return stopImport(plain, importId, stop);
  const [kind, id] = job.actor.split(':') as [string, string];
  const db = createDb(auditedD1(env.DB, () => ({ kind: kind === 'key' ? 'api_key' : 'user', id, role: null, requestId: importId, method: 'POST', path: '/api/products/import' })));
  const counts: Record<Outcome | 'failed', number> = { created: 0, updated: 0, unchanged: 0, failed: 0 };
  const failures: Failure[] = [];
  let rows = 0;
  for (const plan of chunk.plans as ProductPlan[]) {
    rows += plan.lines.length;
    try {
      counts[await applyPlan(db, plan, { vendorId: job.vendorId, actor: job.actor, note: `import ${importId}` })]++;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      counts.failed++;
      failures.push({ line: plan.lines[0]!, column: failureColumn(error), reason: error.message });
    }
  }
  await countChunk(plain, importId, n, { rows, counts, failures });
  const events = takeNotedEvents(db);
  if (events.length)
    await sendEvents(env, events).catch((error: unknown) => log('error', 'sending import events failed; they are sent as leftovers later', { importId, error: String(error) }));
}

/**
 * Why the user or key that started the import may no longer import products, as a request from it
 * would be refused now (a key revoked, expired or suspended, a user disabled, a suspended vendor),
 * or no longer covers `products:write` for the import's vendor; undefined while it may.
 */
async function actorProblem(db: Database, job: typeof imports.$inferSelect): Promise<string | undefined> {
  let principal: Principal;
  try {
    principal = await recordedPrincipal(db, job.actor);
  } catch (error) {
    if (error instanceof ApiError) return error.message;
    throw error;
  }
  return coverProblem(principal, { permissions: ['products:write'], vendorId: job.vendorId });
}

/** Ends the import as failed, with why, and drops its chunks not written yet: their messages then find nothing to do. */
async function stopImport(plain: Database, importId: string, problem: string): Promise<void> {
  const ts = new Date().toISOString();
  const reason = `stopped: the credential that started the import can no longer import products (${problem}); the products not written by then were not imported`;
  await plain.batch([
    plain.update(imports).set({ status: 'failed', reason, completedAt: ts, updatedAt: ts }).where(eq(imports.id, importId)),
    plain.delete(importChunks).where(eq(importChunks.importId, importId)),
  ]);
  log('warn', 'an import was stopped', { importId, reason });
}

/** Adds a chunk's counts and failures to its import and deletes the chunk, in one batch that applies only while the chunk is there. */
async function countChunk(
  plain: Database,
  importId: string,
  n: number,
  { rows, counts, failures }: { rows: number; counts: Record<Outcome | 'failed', number>; failures: Failure[] },
): Promise<void> {
  const stillThere = sql`EXISTS (SELECT 1 FROM ${importChunks} WHERE ${importChunks.importId} = ${importId} AND ${importChunks.n} = ${n})`;
  const ts = new Date().toISOString();
  await plain.batch([
    ...failures.map((f) => plain.insert(importFailures).select(sql`SELECT ${importId}, ${f.line}, ${f.column}, ${f.reason} WHERE ${stillThere}`)),
    plain
      .update(imports)
      .set({
        rowsDone: sql`${imports.rowsDone} + ${rows}`,
        created: sql`${imports.created} + ${counts.created}`,
        updated: sql`${imports.updated} + ${counts.updated}`,
        unchanged: sql`${imports.unchanged} + ${counts.unchanged}`,
        failed: sql`${imports.failed} + ${counts.failed}`,
        chunksDone: sql`${imports.chunksDone} + 1`,
        status: sql`CASE WHEN ${imports.chunksDone} + 1 >= ${imports.chunks} THEN 'completed' ELSE 'running' END`,
        completedAt: sql`CASE WHEN ${imports.chunksDone} + 1 >= ${imports.chunks} THEN ${ts} ELSE NULL END`,
        updatedAt: ts,
      })
      .where(and(eq(imports.id, importId), stillThere)),
    plain.delete(importChunks).where(and(eq(importChunks.importId, importId), eq(importChunks.n, n))),
  ] as never);
}

/** The column a refusal is about, when it names one (a duplicate SKU); else the row as a whole. */
function failureColumn(error: ApiError): string {
  return error.details[0]?.field ?? 'row';
}
