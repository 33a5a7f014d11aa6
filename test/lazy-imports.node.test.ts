import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadedOnUse, staticImports } from './import-graph';

// A src/lib/lazy-*.ts module is evaluated on first use, not at the Worker's startup: esbuild wraps a
// module reached only through `import()` in an init function. One static import anywhere, of the
// file or of a package only it uses, brings that code back into startup (docs/architecture.md#startup).

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sources = readdirSync(path.join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((name) => /\.tsx?$/.test(name))
  .map((name) => path.join('src', name));
const isLazy = (file: string) => /^src\/lib\/lazy-[\w-]+\.ts$/.test(file);

const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const packagesOf = (file: string) => staticImports(read(file)).filter((specifier) => !specifier.startsWith('.'));

describe('lazy modules', () => {
  const lazyFiles = sources.filter(isLazy);
  const lazyPackages = new Set(lazyFiles.flatMap(packagesOf));

  it('are imported only through import(), and so are the packages they load', () => {
    const eager = sources
      .filter((file) => !isLazy(file))
      .flatMap((file) =>
        staticImports(read(file))
          .filter((specifier) => /(^|\/)lazy-[\w-]+$/.test(specifier) || lazyPackages.has(specifier))
          .map((specifier) => `${file} imports ${specifier}`),
      );
    expect(lazyFiles).toContain('src/lib/lazy-markdown.ts');
    expect([...lazyPackages].sort()).toEqual(['marked', 'xss']);
    expect(eager).toEqual([]);
  });

  it('tells static imports from type-only and dynamic ones', () => {
    expect(staticImports("import { Marked } from 'marked';\nimport xss from 'xss';")).toEqual(['marked', 'xss']);
    expect(staticImports("import type * as Xss from 'xss';\nconst m = await import('./lazy-markdown');")).toEqual([]);
    expect(staticImports("export { a } from './a';\nexport * as b from './b';\nexport type { C } from './c';")).toEqual(['./a', './b']);
  });
});

/** The files `entry` reaches through static imports of relative paths (the Worker's startup evaluates them all). */
function reachedFrom(entry: string): Set<string> {
  const reached = new Set([entry]);
  const resolve = (from: string, specifier: string) =>
    ['', '.ts', '.tsx', '/index.ts', '/index.tsx']
      .map((end) => path.join(path.dirname(from), specifier) + end)
      .find((file) => /\.tsx?$/.test(file) && existsSync(path.join(ROOT, file)));
  for (const file of reached) {
    for (const specifier of staticImports(read(file)).filter((s) => s.startsWith('.'))) {
      const target = resolve(file, specifier);
      if (target) reached.add(target);
    }
  }
  return reached;
}

describe("the Worker's startup", () => {
  // Each router is loaded by its mount on the first request that needs it (src/mounts.ts), the queue
  // consumers and crons on their first batch or run: none of them, nor a module's schemas, event payloads or public
  // face (its index.ts), at startup. What startup code takes from a module comes through its
  // startup.ts (test/module-boundaries.node.test.ts).
  it('evaluates no router, schema, handler, queue consumer or cron', () => {
    const reached = reachedFrom('src/index.ts');
    expect(reached.size).toBeGreaterThan(20);
    expect(reached).toContain('src/app.ts');
    expect([...reached].filter((file) => loadedOnUse.test(file))).toEqual([]);
  });

  it('tells what it loads on use', () => {
    expect(
      [
        'src/modules/products/index.ts',
        'src/modules/products/schemas.ts',
        'src/modules/products/router.ts',
        'src/modules/products/products.schemas.ts',
        'src/queues/deliver.ts',
        'src/admin/index.tsx',
      ].every((file) => loadedOnUse.test(file)),
    ).toBe(true);
    expect(
      ['src/middleware/auth.ts', 'src/modules/settings/settings.service.ts', 'src/modules/settings/startup.ts', 'src/db/schema/index.ts'].some((file) => loadedOnUse.test(file)),
    ).toBe(false);
  });
});
