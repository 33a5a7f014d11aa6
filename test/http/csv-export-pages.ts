import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { Hono } from 'hono';
import { createApp } from '../../src/app';
import type { AppEnv } from '../../src/env';
import { csvExport } from '../../src/middleware/csv-export';

/**
 * Runs the CSV export of `path` (src/middleware/csv-export.ts) over a whole app and shows the test
 * each page the export asked the app for: its URL, its answer's headers (X-D1-Rows-Read in
 * development) and the list's total it gave. `beforePage(n)` runs just before page n is asked for. The export's own refusals
 * (413, 429) are not in the app's envelope here: test those through the app. `body` is the CSV, or
 * the error the download broke off with.
 */
export async function exportWatchingPages(path: string, init: RequestInit = {}, beforePage?: (page: number) => Promise<void>) {
  const app = createApp();
  const { openAPIRegistry } = await app.whole();
  const pages: { url: URL; headers: Headers; total?: number }[] = [];
  const outer = new Hono<AppEnv>();
  outer.use(
    '*',
    csvExport(
      () => openAPIRegistry.definitions,
      async (request, c) => {
        await beforePage?.(pages.length + 1);
        const answer = await app.fetch(request, c.env, c.executionCtx);
        const json = (await answer
          .clone()
          .json()
          .catch(() => undefined)) as { pagination?: { total: number } } | undefined;
        pages.push({ url: new URL(request.url), headers: answer.headers, total: json?.pagination?.total });
        return answer;
      },
    ),
  );
  const ctx = createExecutionContext();
  const res = await outer.fetch(new Request(`http://store.test${path}`, init), env, ctx);
  // A download that breaks off is its error, for the test to look at.
  const body = await res.text().then(
    (text) => text,
    (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
  );
  await waitOnExecutionContext(ctx);
  return { res, body, pages };
}
