import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The import graph of src/, as the cycle test (test/import-cycles.node.test.ts) and the boundary
// test (test/module-boundaries.node.test.ts) read it: relative specifiers only, type-only imports
// and `import()` included, comments' lines left out.

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SRC = path.join(ROOT, 'src');
/** `import … from '…'`, `export … from '…'`, `import '…'` and `import('…')`, type-only ones included. */
export const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;
/** `import('…')`, a dynamic import (or a type query, `import('…').T`, which loads nothing). */
const DYNAMIC = /\bimport\s*\(\s*['"](\.{1,2}\/[^'"]+)['"]/g;

export function sourceFiles(): string[] {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.tsx?$/.test(name) && !name.endsWith('.d.ts'))
    .map((name) => path.join(SRC, name));
}

/** The file a relative specifier names, as TypeScript's bundler resolution finds it. */
export function resolve(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier.replace(/\.js$/, ''));
  return [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')].find((candidate) => /\.tsx?$/.test(candidate) && existsSync(candidate));
}

const uncommented = (file: string) => readFileSync(file, 'utf8').replace(/^\s*\/\/.*$/gm, '');

/** `await import('…')`: a load on use, which cannot take part in an evaluation cycle; left out of importGraph. */
export const LOADER = /\bawait\s+import\s*\(\s*['"][^'"]+['"]\s*\)/g;

export function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = [...uncommented(file).replace(LOADER, '').matchAll(SPECIFIER)].map((m) => resolve(file, m[1]!)).filter((t): t is string => t !== undefined);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** One import of a file by another; `dynamic` when every import of `to` in `from` is an `import()`. */
export interface ImportEdge {
  from: string;
  to: string;
  dynamic: boolean;
}

export function importEdges(files: string[]): ImportEdge[] {
  return files.flatMap((from) => {
    const code = uncommented(from);
    const all = new Set([...code.matchAll(SPECIFIER)].map((m) => resolve(from, m[1]!)));
    const dynamicOnly = [...code.matchAll(DYNAMIC)].map((m) => resolve(from, m[1]!));
    const staticToo = new Set([...code.replace(DYNAMIC, '').matchAll(SPECIFIER)].map((m) => resolve(from, m[1]!)));
    return [...all].filter((to): to is string => to !== undefined).map((to) => ({ from, to, dynamic: dynamicOnly.includes(to) && !staticToo.has(to) }));
  });
}

/**
 * The specifiers a file imports statically for their values, re-exports included (`export … from`
 * loads its file as an import does: a module's face loads what it re-exports); `import type` and
 * `export type` left out, `import()` not matched.
 */
export function staticImports(code: string): string[] {
  return [...code.matchAll(/^(?:import|export)\s+(?!type\s)[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
}

/**
 * The files the Worker loads on use, never at its startup (test/lazy-imports.node.test.ts): each
 * module's router and public faces (`index.ts`, `schemas.ts`), routes, schemas, handlers and
 * event payloads, the admin panel, the document, the queue consumers and crons. Paths relative to the
 * repository, with `/`.
 */
export const loadedOnUse =
  /^src\/(modules\/[\w-]+\/(index|router|schemas|[\w.-]+\.(routes|schemas|handlers|events))\.tsx?|admin\/index\.tsx|docs\/(index|api-document|openapi-webhooks)\.ts|queues\/.*|scheduled\.ts)$/;

/** The strongly connected components of more than one file (or a file importing itself): Tarjan's algorithm. */
export function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    indexOf.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indexOf.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, indexOf.get(next)!));
    }
    if (low.get(node) === indexOf.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || graph.get(node)?.includes(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indexOf.has(node)) visit(node);
  return found;
}
