import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// A src/lib/lazy-*.ts module is evaluated on first use, not at the Worker's startup: esbuild wraps a
// module reached only through `import()` in an init function. One static import anywhere, of the
// file or of a package only it uses, brings that code back into startup (docs/architecture.md#startup).

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sources = readdirSync(path.join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((name) => /\.tsx?$/.test(name))
  .map((name) => path.join('src', name));
const isLazy = (file: string) => /^src\/lib\/lazy-[\w-]+\.ts$/.test(file);

/** The specifiers a file imports statically for their values (`import type` left out; `import()` is not matched). */
export function staticImports(code: string): string[] {
  return [...code.matchAll(/^import\s+(?!type\s)[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]);
}

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
  });
});
