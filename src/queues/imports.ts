import { and, eq, sql } from 'drizzle-orm';
import { createDb, type Database } from '../db/client';
import { importChunks, importFailures, imports } from '../db/schema';
import type { Bindings } from '../env';
import { auditedD1 } from '../d1/audit';
import { coverProblem, type Principal } from '../lib/access';
import { isStatementRefused, isTooManyBoundValues } from '../lib/db-errors';
import { ApiError } from '../lib/errors';
import { takeNotedEvents } from '../lib/events';
import { applyPlan, type Outcome, TOO_MANY_VALUES } from '../modules/imports';
import type { ImportMessage, Failure, ProductPlan } from '../modules/imports';
import { recordedPrincipal } from '../middleware/auth';
import { sendEvents } from '../lib/queue-send';
import { log } from './each-message';

/**
 * The `product-imports` consumer: one message is one chunk of an import's validated products
 * (src/modules/imports/). Each product is written in its own D1 batch (applyPlan), so a product
 * the store refuses (a SKU another product took meanwhile) fails alone and whole. The chunk's
 * counts and failures are then added to the import in ONE batch that also deletes the chunk, and
 * only if the chunk is still there: a retried message never counts twice. Writes are audited as
 * the user or key that started the import.
 *
 * A chunk that errors (not a refusal of one product) is retried with backoff; one that fails for
 * good, its tries spent or D1 refusing a statement itself (which no retry changes), ends the
 * import `failed` with a reason in the merchant's words (failImport). The error itself, SQL and
 * all, goes to the log only.
 */
export async function importBatch(batch: MessageBatch<ImportMessage>, env: Bindings): Promise<void> {
  for (const message of batch.messages) {
    const progress = newProgress();
    try {
      await importChunk(env, message.body, progress);
      message.ack();
    } catch (error) {
      const refused = isStatementRefused(error);
      log('error', 'an import chunk failed', { importId: message.body?.importId, chunk: message.body?.n, attempts: message.attempts, refused, error: String(error) });
      if (!refused && message.attempts <= IMPORT_MAX_RETRIES) {
        message.retry({ delaySeconds: Math.min(60, 2 ** message.attempts) });
        continue;
      }
      await failImport(env, message.body, progress, error).then(
        () => message.ack(),
        () => message.retry(),
      );
    }
  }
}

/** `max_retries` of the product-imports consumer in wrangler.toml (keep the two in step). */
export const IMPORT_MAX_RETRIES = 5;

/** How far a try of a chunk got: its products written or refused so far, and the one it was writing. */
interface ChunkProgress {
  plans: ProductPlan[] | undefined;
  written: number;
  rows: number;
  counts: Record<Outcome | 'failed', number>;
  failures: Failure[];
  writing: ProductPlan | undefined;
}

const newProgress = (): ChunkProgress => ({ plans: undefined, written: 0, rows: 0, counts: { created: 0, updated: 0, unchanged: 0, failed: 0 }, failures: [], writing: undefined });

/**
 * Ends the import `failed` when a chunk failed for good: what its last try wrote is counted, the
 * product it stopped at is a failure of its line, and the chunks not written yet are dropped (their
 * messages then find nothing to do), as when the importing credential is revoked. The reason says
 * where and why in words, never the database's. Importing the file again retries the rest; what
 * was written comes back `unchanged`.
 */
async function failImport(env: Bindings, { importId, n }: ImportMessage, progress: ChunkProgress, error: unknown): Promise<void> {
  const plain = createDb(env.DB);
  let plans = progress.plans;
  if (!plans) {
    const [chunk] = await plain
      .select()
      .from(importChunks)
      .where(and(eq(importChunks.importId, importId), eq(importChunks.n, n)));
    if (!chunk) return; // counted already, or the import is gone or stopped
    plans = chunk.plans as ProductPlan[];
  }
  const why = notWrittenBecause(error);
  const at = progress.writing ?? plans[progress.written];
  const tally = { rows: progress.rows, counts: { ...progress.counts }, failures: [...progress.failures] };
  if (at) {
    tally.counts.failed++;
    tally.rows += at.lines.length;
    tally.failures.push({ line: at.lines[0]!, column: 'row', reason: `could not be written: ${why}` });
  }
  const where = at ? `at line ${at.lines[0]}, whose product could not be written` : `after line ${plans.at(-1)?.lines.at(-1)}, whose products could not be counted`;
  const reason = `stopped ${where} (${why}); the products after it were not imported`;
  await countChunk(plain, importId, n, tally, reason);
  log('warn', 'an import failed', { importId, chunk: n, reason });
}

/** Why a product could not be written, for the merchant: what kind of failure, and what to do; never the database's own words. */
function notWrittenBecause(error: unknown): string {
  if (isTooManyBoundValues(error)) return TOO_MANY_VALUES;
  if (isStatementRefused(error)) return 'the database refused the statement that writes it: a fault of the store, not of the file; report it';
  return `the store could not write it in ${IMPORT_MAX_RETRIES + 1} tries: import the file again to retry`;
}

async function importChunk(env: Bindings, { importId, n }: ImportMessage, progress: ChunkProgress): Promise<void> {
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
  const { counts, failures } = progress;
  progress.plans = chunk.plans as ProductPlan[];
  for (const plan of progress.plans) {
    progress.writing = plan;
    try {
      counts[await applyPlan(db, plan, { vendorId: job.vendorId, actor: job.actor, note: `import ${importId}` })]++;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      counts.failed++;
      failures.push({ line: plan.lines[0]!, column: failureColumn(error), reason: error.message });
    }
    progress.writing = undefined;
    progress.written++;
    progress.rows += plan.lines.length;
  }
  await countChunk(plain, importId, n, progress);
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

/**
 * Adds a chunk's counts and failures to its import and deletes the chunk, in one batch that applies
 * only while the chunk is there. With `stop`, the import ends `failed` with that reason instead, and
 * its other chunks go too.
 */
async function countChunk(
  plain: Database,
  importId: string,
  n: number,
  { rows, counts, failures }: { rows: number; counts: Record<Outcome | 'failed', number>; failures: Failure[] },
  stop?: string,
): Promise<void> {
  const stillThere = sql`EXISTS (SELECT 1 FROM ${importChunks} WHERE ${importChunks.importId} = ${importId} AND ${importChunks.n} = ${n})`;
  const ts = new Date().toISOString();
  const last = sql`${imports.chunksDone} + 1 >= ${imports.chunks}`;
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
        ...(stop
          ? { status: 'failed' as const, reason: stop, completedAt: ts }
          : { status: sql`CASE WHEN ${last} THEN 'completed' ELSE 'running' END`, completedAt: sql`CASE WHEN ${last} THEN ${ts} ELSE NULL END` }),
        updatedAt: ts,
      })
      .where(and(eq(imports.id, importId), stillThere)),
    // Stopped: every chunk goes, so the messages of those not written yet find nothing to do.
    plain.delete(importChunks).where(and(eq(importChunks.importId, importId), stop ? undefined : eq(importChunks.n, n))),
  ] as never);
}

/** The column a refusal is about, when it names one (a duplicate SKU); else the row as a whole. */
function failureColumn(error: ApiError): string {
  return error.details[0]?.field ?? 'row';
}
