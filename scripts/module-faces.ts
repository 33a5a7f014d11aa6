// `npx tsx scripts/module-faces.ts`: gives each module of src/modules its public face and points every
// other area's imports of it there (test/module-boundaries.node.test.ts says the rule). Re-runnable:
// 1. a module's index.ts that still holds its router (its exports all end in `Router`) moves to router.ts (its export names kept), and
//    `(await import('…/modules/<m>')).<router>` anywhere becomes an import of '…/modules/<m>/router';
// 2. index.ts is written anew: re-exports of exactly the names other areas import of the module
//    (named ones as they are, value or type; a namespace import `* as x` of a file as
//    `export * as <file in camelCase>`), and each such import is pointed at it;
// 3. names defined in a *.schemas.ts file go to a second face, schemas.ts: a module's shapes without
//    its behaviour, so what needs only a shape (event payloads, another module's schemas) loads no
//    service, and no cycle runs through a face; both faces are loaded on use. What code run at the
//    Worker's startup (the static imports of src/index.ts) takes goes to startup.ts instead;
// 4. imports between areas that import each other, directly or through others, are left as they are
//    (the boundary test names the pairs): a face between them would tie their files into a cycle.
// Then: `npx biome check --write src`, `npx tsc --noEmit -p .` and the boundary, cycle and lazy tests.

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(import.meta.dirname, '..');
const SRC = path.join(ROOT, 'src');
const MODULES = path.join(SRC, 'modules');
const AREAS_BESIDE_MODULES = ['webhooks', 'queues', 'notifications'];
const FACE = 'index.ts';
const STARTUP_FACE = 'startup.ts';
const SCHEMAS_FACE = 'schemas.ts';
const FACES = [FACE, SCHEMAS_FACE, STARTUP_FACE];

const rel = (file: string) => path.relative(ROOT, file);
const read = (file: string) => readFileSync(file, 'utf8');
const parse = (file: string) => ts.createSourceFile(file, read(file), ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);

function sourceFiles(): string[] {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.tsx?$/.test(name) && !name.endsWith('.d.ts'))
    .map((name) => path.join(SRC, name));
}

function resolve(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier.replace(/\.js$/, ''));
  return [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')].find((c) => /\.tsx?$/.test(c) && existsSync(c));
}

/** The module folder a file is in (`src/modules/<m>`), else undefined. */
function moduleOf(file: string): string | undefined {
  const parts = path.relative(MODULES, file).split(path.sep);
  return parts.length > 1 && !parts[0]!.startsWith('..') ? path.join(MODULES, parts[0]!) : undefined;
}

/** A module folder, or src/webhooks, src/queues, src/notifications: what the pair rule counts. */
function areaOf(file: string): string | undefined {
  const mod = moduleOf(file);
  if (mod) return mod;
  const top = path.relative(SRC, file).split(path.sep);
  return top.length > 1 && AREAS_BESIDE_MODULES.includes(top[0]!) ? path.join(SRC, top[0]!) : undefined;
}

/** The specifier `from` imports `target` with: a module's face by its folder. */
function specifierFor(from: string, target: string): string {
  const noExt = target.replace(/\.tsx?$/, '').replace(/\/index$/, '');
  const r = path.relative(path.dirname(from), noExt);
  return r.startsWith('.') ? r : `./${r}`;
}

/** `orders.routes.ts` -> `ordersRoutes`: the name a file's namespace has on its module's face. */
const namespaceName = (file: string) =>
  path
    .basename(file)
    .replace(/\.tsx?$/, '')
    .replace(/[.-](\w)/g, (_, c: string) => c.toUpperCase());

function git(...args: string[]) {
  execFileSync('git', args, { cwd: ROOT, stdio: 'inherit' });
}

// 1. Routers out of index.ts.
const hasOwnCode = (file: string) => parse(file).statements.some((s) => !(ts.isExportDeclaration(s) && s.moduleSpecifier) && !ts.isImportDeclaration(s));
const routerExports = new Map<string, Set<string>>(); // module -> names router.ts exports
for (const m of readdirSync(MODULES)) {
  const dir = path.join(MODULES, m);
  const face = path.join(dir, FACE);
  if (existsSync(face) && hasOwnCode(face)) {
    const exported = parse(face).statements.flatMap((s) =>
      ts.isVariableStatement(s) && s.modifiers?.some((x) => x.kind === ts.SyntaxKind.ExportKeyword) ? s.declarationList.declarations.map((d) => d.name.getText()) : [],
    );
    if (!exported.length || !exported.every((name) => name.endsWith('Router')) || existsSync(path.join(dir, 'router.ts'))) {
      throw new Error(`${rel(face)} has code of its own that is not a lone router: move it to a file of the module, then rerun`);
    }
    git('mv', face, path.join(dir, 'router.ts'));
  }
  const router = path.join(dir, 'router.ts');
  if (existsSync(router)) {
    const names = parse(router).statements.flatMap((s) =>
      ts.isVariableStatement(s) && s.modifiers?.some((x) => x.kind === ts.SyntaxKind.ExportKeyword) ? s.declarationList.declarations.map((d) => d.name.getText()) : [],
    );
    routerExports.set(dir, new Set(names));
  }
}

// What each face re-exports now: name -> [origin file, 'value' | 'type' | 'namespace'].
type Kind = 'value' | 'type' | 'namespace';
function faceEntries(face: string): Map<string, [string, Kind]> {
  const entries = new Map<string, [string, Kind]>();
  if (!existsSync(face)) return entries;
  for (const s of parse(face).statements) {
    if (!ts.isExportDeclaration(s) || !s.moduleSpecifier) continue;
    const origin = resolve(face, (s.moduleSpecifier as ts.StringLiteral).text)!;
    if (s.exportClause && ts.isNamespaceExport(s.exportClause)) entries.set(s.exportClause.name.text, [origin, 'namespace']);
    else if (s.exportClause && ts.isNamedExports(s.exportClause))
      for (const e of s.exportClause.elements) entries.set(e.name.text, [origin, s.isTypeOnly || e.isTypeOnly ? 'type' : 'value']);
  }
  return entries;
}

// 3. The files the Worker's startup evaluates (static value imports from src/index.ts).
function startupFiles(): Set<string> {
  const reached = new Set([path.join(SRC, 'index.ts')]);
  for (const file of reached) {
    for (const s of parse(file).statements) {
      const isStatic = (ts.isImportDeclaration(s) && !s.importClause?.isTypeOnly) || (ts.isExportDeclaration(s) && !s.isTypeOnly && s.moduleSpecifier !== undefined);
      if (!isStatic) continue;
      const target = resolve(file, ((s as ts.ImportDeclaration).moduleSpecifier as ts.StringLiteral).text);
      if (target) reached.add(target);
    }
  }
  return reached;
}
const atStartup = startupFiles();

// 4. Areas importing each other, directly or through others: their imports stay as they are.
const files = sourceFiles();
const areaImports = new Set<string>();
for (const file of files) {
  for (const m of read(file).matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const target = resolve(file, m[1]!);
    const [a, b] = [areaOf(file), target && areaOf(target)];
    if (a && b && a !== b) areaImports.add(`${a}|${b}`);
  }
}
/** Whether area `b` imports area `a`, directly or through other areas. */
function reaches(b: string, a: string, seen = new Set<string>()): boolean {
  if (seen.has(b)) return false;
  seen.add(b);
  return [...areaImports].some((edge) => {
    const [from, to] = edge.split('|') as [string, string];
    return from === b && (to === a || reaches(to, a, seen));
  });
}
const inOneKnot = (from: string, to: string) => {
  const [a, b] = [areaOf(from), areaOf(to)];
  return a !== undefined && b !== undefined && a !== b && reaches(b, a);
};

// 2. Every import of a module from outside it, and how it will read.
interface Need {
  module: string;
  face: string; // index.ts or startup.ts of the module
  name: string; // the name on the face
  origin: string; // the file that defines it
  kind: Kind;
}
const needs: Need[] = [];
const edits = new Map<string, { start: number; end: number; text: string }[]>();
const edit = (file: string, node: ts.Node, text: string) => {
  const list = edits.get(file) ?? [];
  list.push({ start: node.getStart(), end: node.getEnd(), text });
  edits.set(file, list);
};
const oldFaces = new Map<string, Map<string, [string, Kind]>>();
const entriesOf = (face: string) => oldFaces.get(face) ?? oldFaces.set(face, faceEntries(face)).get(face)!;
const left: string[] = [];

for (const file of files) {
  const source = parse(file);
  const visit = (node: ts.Node) => {
    let literal: ts.StringLiteral | undefined;
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) literal = node.moduleSpecifier as ts.StringLiteral;
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) literal = node.argument.literal as ts.StringLiteral;
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) literal = node.arguments[0] as ts.StringLiteral;
    if (literal && ts.isStringLiteral(literal)) handle(node, literal);
    ts.forEachChild(node, visit);
  };
  const handle = (node: ts.Node, literal: ts.StringLiteral) => {
    const target = resolve(file, literal.text) ?? (literal.text.includes('modules/') ? path.resolve(path.dirname(file), literal.text, FACE) : undefined);
    const mod = target && moduleOf(target);
    if (!target || !mod || moduleOf(file) === mod) return;
    const base = path.basename(target);
    if (base === 'module.ts' || base === 'router.ts') return;
    if (inOneKnot(file, target)) {
      if (!FACES.includes(base)) left.push(`${rel(file)} -> ${rel(target)}`);
      return;
    }
    const isFace = FACES.includes(base);
    const originOf = (name: string): [string, Kind] | undefined => (isFace ? entriesOf(target).get(name) : undefined);
    /** The face a name of `origin` goes on, for this importer. */
    const faceFor = (origin: string) => path.join(mod, atStartup.has(file) ? STARTUP_FACE : /\.schemas\.tsx?$/.test(origin) ? SCHEMAS_FACE : FACE);
    const faces = new Set<string>(); // the faces this import's names go on
    const need = (name: string, kind: Kind) => {
      const known = originOf(name);
      const origin = known?.[0] ?? target;
      faces.add(faceFor(origin));
      needs.push({ module: mod, face: faceFor(origin), name, origin, kind: known?.[1] === 'namespace' ? 'namespace' : kind });
    };
    /** The specifier of the one face the import's names are on (an import of a face whose names now lie on two must be split by hand). */
    const to = () => {
      if (faces.size > 1) throw new Error(`${rel(file)}: '${literal.text}' imports names of two faces (${[...faces].map(rel).join(', ')}): split the import`);
      return `'${specifierFor(file, [...faces][0] ?? faceFor(target))}'`;
    };

    // `(await import('…/modules/<m>')).<router>`: the router file.
    if (ts.isCallExpression(node)) {
      const access = node.parent?.parent?.parent;
      const name = access && ts.isPropertyAccessExpression(access) ? access.name.text : undefined;
      if (name && routerExports.get(mod)?.has(name)) return edit(file, literal, `'${specifierFor(file, path.join(mod, 'router.ts'))}'`);
      if (name) need(name, 'value');
      else if (!isFace) throw new Error(`${rel(file)}: an import() of ${rel(target)} whose use this script cannot read`);
      return edit(file, literal, to());
    }
    if (ts.isImportTypeNode(node)) {
      const name = node.qualifier ? (ts.isIdentifier(node.qualifier) ? node.qualifier : (node.qualifier as ts.QualifiedName).left).getText() : undefined;
      if (!name) throw new Error(`${rel(file)}: typeof import('${literal.text}') is not handled`);
      need(name, 'type');
      return edit(file, literal, to());
    }
    const declaration = node as ts.ImportDeclaration | ts.ExportDeclaration;
    const typeOnly = ts.isImportDeclaration(declaration) ? !!declaration.importClause?.isTypeOnly : declaration.isTypeOnly;
    const bindings = ts.isImportDeclaration(declaration) ? declaration.importClause?.namedBindings : declaration.exportClause;
    if (ts.isImportDeclaration(declaration) && declaration.importClause?.name) throw new Error(`${rel(file)}: a default import of ${rel(target)}`);
    if (!bindings) throw new Error(`${rel(file)}: '${literal.text}' imports no names (export * or a bare import)`);
    if (ts.isNamespaceImport(bindings)) {
      if (isFace) throw new Error(`${rel(file)}: import * of a face; import its names`);
      const name = namespaceName(target);
      needs.push({ module: mod, face: faceFor(target), name, origin: target, kind: 'namespace' });
      faces.add(faceFor(target));
      const local = bindings.name.text;
      return edit(file, declaration, `import ${typeOnly ? 'type ' : ''}{ ${name === local ? name : `${name} as ${local}`} } from ${to()};`);
    }
    if (ts.isNamespaceExport(bindings)) throw new Error(`${rel(file)}: export * as … from a module`);
    for (const element of (bindings as ts.NamedImports | ts.NamedExports).elements) {
      need((element.propertyName ?? element.name).text, typeOnly || element.isTypeOnly ? 'type' : 'value');
    }
    edit(file, literal, to());
  };
  visit(source);
}

// Write the faces.
const byFace = new Map<string, Map<string, Need>>();
for (const need of needs) {
  const faceNeeds = byFace.get(need.face) ?? byFace.set(need.face, new Map()).get(need.face)!;
  const known = faceNeeds.get(need.name);
  if (known && known.origin !== need.origin) throw new Error(`${rel(need.module)}: two files export ${need.name} (${rel(known.origin)}, ${rel(need.origin)}): rename one`);
  if (!known || known.kind === 'type') faceNeeds.set(need.name, need);
}
const HEADERS: Record<string, (m: string) => string> = {
  [FACE]: (m) =>
    `// The public face of the ${m} module: what other areas use of it, and nothing else (test/module-boundaries.node.test.ts).\n// Loaded on use, never at the Worker's startup (startup.ts serves that). Written by scripts/module-faces.ts: rerun it.\n`,
  [SCHEMAS_FACE]: (m) =>
    `// The shapes of the ${m} module that other areas use (its *.schemas.ts), apart from its behaviour (index.ts), so a\n// shape loads no service (test/module-boundaries.node.test.ts). Loaded on use. Written by scripts/module-faces.ts: rerun it.\n`,
  [STARTUP_FACE]: (m) =>
    `// What code run at the Worker's startup takes from the ${m} module: nothing it reaches is loaded on use\n// (test/module-boundaries.node.test.ts). Written by scripts/module-faces.ts: rerun it.\n`,
};
for (const m of readdirSync(MODULES)) {
  for (const faceName of FACES) {
    const face = path.join(MODULES, m, faceName);
    const faceNeeds = [...(byFace.get(face)?.values() ?? [])];
    if (!faceNeeds.length) {
      if (existsSync(face)) unlinkSync(face);
      continue;
    }
    const origins = [...new Set(faceNeeds.map((n) => n.origin))].sort();
    const lines = origins.flatMap((origin) => {
      const spec = specifierFor(face, origin);
      const of = (kind: Kind) =>
        faceNeeds
          .filter((n) => n.origin === origin && n.kind === kind)
          .map((n) => n.name)
          .sort();
      return [
        ...of('namespace').map((name) => `export * as ${name} from '${spec}';`),
        ...(of('value').length ? [`export { ${of('value').join(', ')} } from '${spec}';`] : []),
        ...(of('type').length ? [`export type { ${of('type').join(', ')} } from '${spec}';`] : []),
      ];
    });
    writeFileSync(face, `${HEADERS[faceName]!(m)}\n${lines.join('\n')}\n`);
  }
}

// Point the imports at the faces.
for (const [file, list] of edits) {
  let text = read(file);
  for (const { start, end, text: replacement } of list.sort((a, b) => b.start - a.start)) text = text.slice(0, start) + replacement + text.slice(end);
  writeFileSync(file, text);
}

// One import declaration of each face per kind in each file rewritten (`import { a, b }`, `import type { C }`).
for (const file of edits.keys()) {
  const source = parse(file);
  const groups = new Map<string, ts.ImportDeclaration[]>();
  for (const s of source.statements) {
    if (!ts.isImportDeclaration(s) || !s.importClause || s.importClause.name || !s.importClause.namedBindings || !ts.isNamedImports(s.importClause.namedBindings)) continue;
    const specifier = (s.moduleSpecifier as ts.StringLiteral).text;
    const target = resolve(file, specifier);
    if (!target || !moduleOf(target) || !FACES.includes(path.basename(target))) continue;
    const key = `${s.importClause.isTypeOnly}|${specifier}`;
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  const changes: { start: number; end: number; text: string }[] = [];
  for (const [key, declarations] of groups) {
    if (declarations.length < 2) continue;
    const [typeOnly, specifier] = key.split('|') as [string, string];
    const names = [...new Set(declarations.flatMap((d) => (d.importClause!.namedBindings as ts.NamedImports).elements.map((e) => e.getText())))];
    changes.push({
      start: declarations[0]!.getStart(),
      end: declarations[0]!.getEnd(),
      text: `import ${typeOnly === 'true' ? 'type ' : ''}{ ${names.join(', ')} } from '${specifier}';`,
    });
    for (const d of declarations.slice(1)) changes.push({ start: d.getFullStart(), end: d.getEnd(), text: '' });
  }
  let text = source.text;
  for (const { start, end, text: replacement } of changes.sort((a, b) => b.start - a.start)) text = text.slice(0, start) + replacement + text.slice(end);
  if (changes.length) writeFileSync(file, text);
}

console.log(`faces: ${byFace.size} files for ${needs.length} imported names; ${edits.size} files rewritten`);
if (left.length) console.log(`left deep, between areas that import each other (${left.length}):\n  ${left.join('\n  ')}`);
