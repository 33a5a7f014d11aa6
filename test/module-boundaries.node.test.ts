import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ImportEdge, importEdges, loadedOnUse, ROOT, resolve, SRC, sourceFiles, staticImports } from './import-graph';

// A module is a folder src/modules/<m>/. A file outside it may import only its faces:
// - index.ts, its public face: re-exports of exactly what other areas use of it, values and types;
// - schemas.ts, the part of that face defined in its *.schemas.ts files: its shapes apart from its
//   behaviour, so what needs a shape (an event payload, another module's schema) loads no service
//   and no import cycle runs through a face. Both are loaded on use, like the router: the Worker's
//   startup never reaches them (test/lazy-imports.node.test.ts);
// - startup.ts, what code run at the Worker's startup takes from it: nothing it reaches statically
//   is loaded on use (no router, schema, handler or face), checked below;
// - module.ts, its declaration for the module registry;
// - router.ts, by import() only: a mount loads it on the first request that needs it.
// And no two areas import each other (an area is a module, src/webhooks, src/queues or
// src/notifications), type-only imports included: a pair is one module in two folders.
// scripts/module-faces.ts writes the faces and points deep imports at them.

const AREAS_BESIDE_MODULES = new Set(['webhooks', 'queues', 'notifications']);

/** `modules/<m>` for a file of a module, `webhooks`, `queues` or `notifications` for theirs, else undefined. Paths relative to src/. */
export function areaOf(file: string): string | undefined {
  const [top, second] = file.split('/');
  if (top === 'modules' && second && file.split('/').length > 2) return `modules/${second}`;
  return top && AREAS_BESIDE_MODULES.has(top) && second ? top : undefined;
}

/** The faces a file outside a module may import: any way, or only by import(). */
const FACES = new Set(['index.ts', 'schemas.ts', 'startup.ts', 'module.ts']);
const LOADED_BY_IMPORT = new Set(['router.ts']);

/** The imports that reach into another module past its faces, as `file -> target` (paths relative to src/). */
export function deepImports(edges: readonly ImportEdge[]): string[] {
  return edges
    .filter(({ from, to, dynamic }) => {
      const target = areaOf(to);
      if (!target?.startsWith('modules/') || areaOf(from) === target) return false;
      const name = to.slice(target.length + 1);
      return !(FACES.has(name) || (dynamic && LOADED_BY_IMPORT.has(name)));
    })
    .map(({ from, to }) => `${from} -> ${to}`);
}

/** The pairs of areas that import each other, `a <-> b` with a before b. */
export function mutualPairs(edges: readonly ImportEdge[]): string[] {
  const imports = new Set(edges.map(({ from, to }) => [areaOf(from), areaOf(to)]).flatMap(([a, b]) => (a && b && a !== b ? [`${a} -> ${b}`] : [])));
  return [...imports].flatMap((edge) => {
    const [a, b] = edge.split(' -> ') as [string, string];
    return a < b && imports.has(`${b} -> ${a}`) ? [`${a} <-> ${b}`] : [];
  });
}

const relativeEdges = () => importEdges(sourceFiles()).map((edge) => ({ ...edge, from: path.relative(SRC, edge.from), to: path.relative(SRC, edge.to) }));

/** The files `entry` reaches through static imports of relative paths, relative to the repository. */
function staticallyReached(entry: string): Set<string> {
  const reached = new Set([entry]);
  for (const file of reached) {
    for (const specifier of staticImports(readFileSync(path.join(ROOT, file), 'utf8')).filter((s) => s.startsWith('.'))) {
      const target = resolve(path.join(ROOT, file), specifier);
      if (target) reached.add(path.relative(ROOT, target));
    }
  }
  return reached;
}

describe('module boundaries', () => {
  it('tells a deep import and a pair from imports of a face', () => {
    const edges: ImportEdge[] = [
      { from: 'modules/orders/orders.service.ts', to: 'modules/products/products.read.ts', dynamic: false },
      { from: 'admin/routes/orders.tsx', to: 'modules/orders/index.ts', dynamic: false },
      { from: 'app.ts', to: 'modules/settings/startup.ts', dynamic: false },
      { from: 'webhooks/event-payloads.ts', to: 'modules/orders/schemas.ts', dynamic: false },
      { from: 'mounts.ts', to: 'modules/orders/router.ts', dynamic: true },
      { from: 'docs/api-document.ts', to: 'modules/orders/router.ts', dynamic: false },
      { from: 'modules/orders/orders.read.ts', to: 'modules/orders/orders.schemas.ts', dynamic: false },
      { from: 'modules/products/products.service.ts', to: 'modules/orders/index.ts', dynamic: false },
      { from: 'queues/deliver.ts', to: 'webhooks/payload.ts', dynamic: false },
      { from: 'webhooks/payload.ts', to: 'lib/events.ts', dynamic: false },
    ];
    expect(deepImports(edges)).toEqual(['modules/orders/orders.service.ts -> modules/products/products.read.ts', 'docs/api-document.ts -> modules/orders/router.ts']);
    expect(mutualPairs(edges)).toEqual(['modules/orders <-> modules/products']);
    expect([areaOf('modules/orders/index.ts'), areaOf('webhooks/payload.ts'), areaOf('lib/events.ts'), areaOf('mounts.ts')]).toEqual([
      'modules/orders',
      'webhooks',
      undefined,
      undefined,
    ]);
  });

  it("imports no module's files but its faces (src/modules/<m>/index.ts; router.ts by import())", () => {
    const edges = relativeEdges();
    expect(edges.length).toBeGreaterThan(1000);
    expect(deepImports(edges)).toEqual([]);
  });

  it('has no two areas importing each other', () => {
    expect(mutualPairs(relativeEdges())).toEqual([]);
  });

  it("loads nothing on use from a module's startup.ts", () => {
    const modules = readdirSync(path.join(SRC, 'modules'));
    const startupFaces = modules.map((m) => `src/modules/${m}/startup.ts`).filter((file) => existsSync(path.join(ROOT, file)));
    const lazy = startupFaces.flatMap((face) => [...staticallyReached(face)].filter((file) => loadedOnUse.test(file)).map((file) => `${face} -> ${file}`));
    expect(lazy).toEqual([]);
  });
});
