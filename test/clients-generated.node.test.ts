import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../scripts/openapi-dump';
// @ts-expect-error plain ESM script without declarations (this file is not in the typecheck project)
import { generateAll, orphans, ROOT } from '../scripts/clients/generate.mjs';

// The client libraries are generated from clients/openapi.json (`npm run clients:generate`). This
// fails when the committed document is not what the Worker serves now, or when a committed generated
// file is not what its language's generator (scripts/clients/<lang>.mjs) makes of the document.
// Runs in Node: the generators are Node scripts.

const RUN = 'run `npm run clients:generate` and commit the result';

describe('generated clients', () => {
  it('clients/openapi.json is the document the Worker serves', async () => {
    const committed = readFileSync(path.join(ROOT, 'clients', 'openapi.json'), 'utf8');
    const served = `${JSON.stringify(await openApiDocument(), null, 2)}\n`;
    expect(committed === served, `clients/openapi.json is stale: ${RUN}`).toBe(true);
  });

  it('every generated file is what its generator makes of clients/openapi.json', async () => {
    const { files, missing } = (await generateAll()) as { files: { language: string; path: string; content: string }[]; missing: string[] };
    if (missing.length) console.warn(`No generator yet for: ${missing.join(', ')}`);
    expect(files.length).toBeGreaterThan(0);
    const stale: string[] = [];
    for (const file of files) {
      let committed: string | null = null;
      try {
        committed = readFileSync(path.join(ROOT, file.path), 'utf8');
      } catch {}
      if (committed !== file.content) stale.push(`${file.path} (${file.language}${committed === null ? ', missing' : ''})`);
    }
    for (const rel of orphans(files) as string[]) stale.push(`${rel} (no longer generated: delete it)`);
    expect(stale, `Generated client files are out of date: ${RUN}.\n${stale.join('\n')}`).toEqual([]);
  });
});
