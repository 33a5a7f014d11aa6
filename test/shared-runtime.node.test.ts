import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The workers project shares one runtime between test files (docs/architecture.md#tests). Two rules
// make that safe, and this file keeps them: what a module of src/ keeps between requests is
// registered with keptPerIsolate(), so test/fresh-runtime.ts can drop it; and tests reach the
// Worker through workerFetch(), not the runtime's binding, which re-imports the Worker per call.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const filesUnder = (dir: string, pattern: RegExp) =>
  readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => pattern.test(name))
    .map((name) => path.join(dir, name));

/** Top-level state a module can change after it loads: a `let`, or an empty Map, Set or LruCache to fill. */
const MUTABLE_STATE = /^(?:let \w+|(?:export )?const \w+ = new (?:Map|Set|LruCache)\b(?:<[^=]*>)?\((?:\)|\{))/gm;

/** State that needs no forgetting, and why. */
const STATELESS_ACROSS_FILES: Record<string, string> = {
  'src/db/client.ts': 'the relational schema, derived from the code',
  'src/docs/openapi-document.ts': 'a count of document builds, which tests compare before and after',
  'src/lib/query/list-query.ts': 'the parameters every list shares, built from the code on first use',
  'src/modules/payments/providers/stripe.ts': 'Stripe clients by secret key',
};

describe('a runtime shared between test files', () => {
  it('has every module that keeps state between requests register how to forget it', () => {
    const unregistered = filesUnder('src', /\.tsx?$/).filter((file) => {
      const code = readFileSync(path.join(ROOT, file), 'utf8');
      return code.match(MUTABLE_STATE) && !code.includes('keptPerIsolate(') && !(file in STATELESS_ACROSS_FILES);
    });
    expect(unregistered).toEqual([]);
  });

  it('finds the state it looks for', () => {
    expect('let kept: Kept | undefined;'.match(MUTABLE_STATE)).not.toBeNull();
    expect('const leases = new Map<string, Lease[]>();'.match(MUTABLE_STATE)).not.toBeNull();
    expect('const rendered = new LruCache<Rendered>({ maxEntries: 1000 });'.match(MUTABLE_STATE)).not.toBeNull();
    expect("const READS = new Set(['GET', 'HEAD']);".match(MUTABLE_STATE)).toBeNull();
  });

  it('has tests reach the Worker through workerFetch only', () => {
    const direct = filesUnder('test', /\.tsx?$/).filter(
      (file) => !file.endsWith('.node.test.ts') && /\b(?:exports\.default|SELF)\.fetch\(/.test(readFileSync(path.join(ROOT, file), 'utf8')),
    );
    expect(direct).toEqual([]);
  });
});
