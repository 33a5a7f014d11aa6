import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycles, importGraph, LOADER, ROOT, SPECIFIER, SRC, sourceFiles } from './import-graph';

// No module of src/ may import itself through others. Type-only imports count (`import type`,
// `export type … from`, `import('…').T`): a cycle of types still ties the files together and is the
// first step to a cycle of values, and src/env.ts is meant to import nothing above it. A loader's
// `await import('…')` does not: it runs on use, after every file has been evaluated, so it cannot
// take part in an evaluation cycle (a module's declaration loads its router so: src/modules/*/module.ts).

describe('import cycles', () => {
  it('finds a cycle, type-only and import() ones included', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(cycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    const code = `import type { A } from './a';\nexport type { B } from "../b";\ntype C = import('./c').C;\nimport './d';\nconst e = async () => (await import('./e')).e;`;
    expect([...code.replace(LOADER, '').matchAll(SPECIFIER)].map((m) => m[1])).toEqual(['./a', '../b', './c', './d']);
  });

  it("keeps src/middleware, src/lib, src/d1 and src/rate-limit below src/modules: none imports a module but the registry of their declarations (route facts are in the routes' policies)", () => {
    const graph = importGraph(sourceFiles());
    const below = ['middleware', 'lib', 'd1', 'rate-limit'].map((dir) => path.join(SRC, dir));
    const modules = path.join(SRC, 'modules') + path.sep;
    const registry = path.join(SRC, 'modules', 'registry.ts');
    const upward = [...graph].flatMap(([file, targets]) =>
      below.some((dir) => file.startsWith(dir + path.sep))
        ? targets.filter((t) => t.startsWith(modules) && t !== registry).map((t) => `${path.relative(ROOT, file)} -> ${path.relative(ROOT, t)}`)
        : [],
    );
    expect(upward).toEqual([]);
    expect(graph.get(path.join(SRC, 'middleware', 'body-limit.ts'))?.length).toBeGreaterThan(0);
    expect(graph.get(path.join(SRC, 'd1', 'request-db.ts'))?.length).toBeGreaterThan(0);
  });

  it('keeps the registry a list of declarations: a module.ts imports nothing but defineModule, and loads its code only on use', () => {
    const graph = importGraph(sourceFiles());
    const declarations = [...graph.keys()].filter((file) => /\/modules\/[\w-]+\/module\.ts$/.test(file));
    expect(declarations.length).toBeGreaterThan(30);
    const defineModule = path.join(SRC, 'lib', 'define-module.ts');
    const reached = declarations.flatMap((file) =>
      graph
        .get(file)!
        .filter((t) => t !== defineModule)
        .map((t) => `${path.relative(ROOT, file)} -> ${path.relative(ROOT, t)}`),
    );
    expect(reached).toEqual([]);
    const registryImports = graph.get(path.join(SRC, 'modules', 'registry.ts'))!;
    expect(registryImports.filter((t) => !declarations.includes(t) && !t.startsWith(path.join(SRC, 'lib')))).toEqual([]);
  });

  it('src/ has none', () => {
    const graph = importGraph(sourceFiles());
    expect(graph.get(path.join(SRC, 'env.ts'))?.length).toBeGreaterThan(0);
    const named = cycles(graph).map((component) => component.map((file) => path.relative(ROOT, file)).join(' <-> '));
    expect(named).toEqual([]);
  });
});
