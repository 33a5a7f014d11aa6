import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// docs/architecture.md is a contributor's map of the code. These checks fail when the code moves and
// the map does not: its file paths, the request path's middleware (against src/app.ts), the queue
// consumers and crons (against wrangler.toml, src/queues/index.ts and src/scheduled.ts), and the
// test folders. The sources are read as text; src/app.ts and src/scheduled.ts through TypeScript's
// parser, so formatting, comments and line breaks do not matter.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const DOC = read('docs/architecture.md');

/** The text under the heading `title` (any level), up to the next heading of any level. */
function section(markdown: string, title: string): string {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => new RegExp(`^#{1,6}\\s+${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`).test(line));
  if (start < 0) throw new Error(`docs/architecture.md has no heading "${title}"`);
  const end = lines.findIndex((line, i) => i > start && /^#{1,6}\s/.test(line));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** The items of a Markdown list whose lines start with `marker` at column 0, each with its indented continuation lines. */
function listItems(text: string, marker: RegExp): string[] {
  const items: string[] = [];
  let open = false; // whether an indented line continues the last item
  for (const line of text.split('\n')) {
    if (marker.test(line)) {
      items.push(line);
      open = true;
    } else if (open && /^\s+\S/.test(line)) items[items.length - 1] += ` ${line.trim()}`;
    else if (line.trim() !== '') open = false;
  }
  return items;
}

const backticked = (text: string) => [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);

/** Every file of the repository, relative with `/`; dependencies, build state and dot-folders left out. */
function repositoryFiles(dir = ''): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') return [];
    const relative = dir ? `${dir}/${entry.name}` : entry.name;
    return entry.isDirectory() ? repositoryFiles(relative) : [relative];
  });
}

/** A written path as a pattern: `<resource>` stands for one path segment, `*` for part of one. */
function pathPattern(written: string): RegExp {
  const source = written
    .split(/(<[^>]+>|\*)/)
    .map((part) => (part === '*' ? '[^/]*' : part.startsWith('<') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

/**
 * The backticked names of files and folders: a path under one of the repository's top-level folders
 * (`src/app.ts`, `test/http/`, `src/modules/<resource>/index.ts`), or a bare file name with a
 * source extension (`settle.ts`, `wrangler.toml`), which some file of the repository must carry.
 * Module names (`hono/request-id`), URLs (`/media/{key}`) and code are not paths.
 */
function writtenPaths(markdown: string, topLevel: Set<string>): string[] {
  return backticked(markdown).filter((token) => {
    if (/\s/.test(token)) return false;
    if (token.includes('/')) return topLevel.has(token.split('/')[0]!);
    return /^[\w.<>*-]+\.(ts|tsx|mjs|js|sql|toml|md|json)$/.test(token);
  });
}

/** The function called `name` in a TypeScript source. */
function functionNamed(file: string, name: string): ts.FunctionDeclaration {
  const source = ts.createSourceFile(file, read(file), ts.ScriptTarget.Latest, true);
  const found = source.statements.find((s): s is ts.FunctionDeclaration => ts.isFunctionDeclaration(s) && s.name?.text === name);
  if (!found?.body) throw new Error(`${file} has no function ${name}`);
  return found;
}

function calls(node: ts.Node): ts.CallExpression[] {
  const found: ts.CallExpression[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isCallExpression(n)) found.push(n);
    n.forEachChild(visit);
  };
  visit(node);
  return found.sort((a, b) => a.getStart() - b.getStart());
}

/**
 * What a middleware argument of `app.use` is called: `checkConfig`, `apiVersion()`, `cors(...)`;
 * `only(applies, middleware)` is the middleware it wraps. Any other form fails the test, to be taught here.
 */
function middlewareName(node: ts.Expression): string {
  if (ts.isIdentifier(node)) return node.text;
  if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
    if (node.expression.text === 'only') return middlewareName(node.arguments[1]!);
    return node.expression.text;
  }
  throw new Error(`src/app.ts: app.use(... ${node.getText()} ...) is a middleware form this test cannot name`);
}

/** Each middleware `buildApp` registers with `app.use`, in source order (the order Hono runs them), with its path pattern. */
function appMiddleware(): { pattern: string; name: string }[] {
  return calls(functionNamed('src/app.ts', 'buildApp'))
    .filter((call) => call.expression.getText() === 'app.use')
    .flatMap((call) => {
      const [pattern, ...middleware] = call.arguments;
      if (!pattern || !ts.isStringLiteral(pattern)) throw new Error(`src/app.ts: ${call.getText()} has no path pattern`);
      return middleware.map((m) => ({ pattern: pattern.text, name: middlewareName(m) }));
    });
}

/** The doc's request path: its numbered items, each led by the middleware's name in backticks. */
function documentedMiddleware(): { name: string; text: string }[] {
  return listItems(section(DOC, 'The request path'), /^\d+\.\s/).map((text) => ({ name: /^\d+\.\s+`([^`]+)`/.exec(text)?.[1] ?? '', text }));
}

/** What each path pattern of `app.use` is called in an item. */
const PATTERN_WORDS: Record<string, string> = { '*': 'every path', '/api/*': '`/api/*`', '/admin/*': '`/admin/*`' };

describe('docs/architecture.md', () => {
  it('names only files and folders that exist', () => {
    const files = repositoryFiles();
    const folders = new Set(
      files.flatMap((file) =>
        file
          .split('/')
          .slice(0, -1)
          .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
      ),
    );
    const topLevel = new Set(files.map((file) => file.split('/')[0]!));
    const names = files.map((file) => file.split('/').pop()!);
    const missing = writtenPaths(DOC, topLevel).filter((written) => {
      const pattern = pathPattern(written.replace(/\/$/, ''));
      if (written.endsWith('/')) return ![...folders].some((folder) => pattern.test(folder));
      return !(written.includes('/') ? files : names).some((file) => pattern.test(file));
    });
    expect(missing).toEqual([]);
  });

  it("lists src/app.ts's middleware in its order, each with its path pattern and where it is defined", () => {
    const registered = appMiddleware();
    expect(registered.length).toBeGreaterThan(10); // the parse found the chain
    const documented = documentedMiddleware();
    expect(documented.map((d) => d.name)).toEqual(registered.map((r) => r.name));
    const app = read('src/app.ts');
    registered.forEach(({ pattern, name }, i) => {
      const { text } = documented[i]!;
      expect(text, `item ${i + 1} (${name}) says where it runs`).toContain(PATTERN_WORDS[pattern] ?? `\`${pattern}\``);
      // The item's first path-like token after the name: a source file defining it, or the package module src/app.ts imports it from.
      const where = backticked(text)
        .slice(1)
        .find((token) => /^(src\/|hono\/)/.test(token));
      expect(where, `item ${i + 1} (${name}) names its file`).toBeDefined();
      if (where!.startsWith('hono/')) expect(app).toMatch(new RegExp(`import \\{[^}]*\\b${name}\\b[^}]*\\} from '${where}'`));
      else expect(read(where!), `${where} defines ${name}`).toMatch(new RegExp(`\\b(function|const)\\s+${name}\\b`));
    });
  });

  it('names each queue consumer of wrangler.toml with the function src/queues/index.ts hands it to', () => {
    const toml = read('wrangler.toml');
    const queues = toml
      .split(/^\[\[/m)
      .filter((block) => block.startsWith('queues.consumers]]'))
      .map((block) => /^queue\s*=\s*"([^"]+)"/m.exec(block)![1]!);
    expect(queues.length).toBeGreaterThan(0);
    const consumers = new Map([...read('src/queues/index.ts').matchAll(/case '([^']+)':\s*return (\w+)\(/g)].map((m) => [m[1]!, m[2]!]));
    const documented = new Map(listItems(section(DOC, 'Queues and crons'), /^- `/).map((item) => [/^- `([^`]+)`/.exec(item)![1]!, backticked(item)] as const));
    for (const queue of queues) {
      expect(consumers.get(queue), `src/queues/index.ts consumes ${queue}`).toBeDefined();
      expect(documented.get(queue) ?? [], `the doc lists ${queue} with its consumer`).toContain(consumers.get(queue));
    }
  });

  it('names each cron of wrangler.toml and everything runScheduled runs', () => {
    const crons = [.../^crons\s*=\s*\[([^\]]*)\]/m.exec(read('wrangler.toml'))![1]!.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
    expect(crons.length).toBeGreaterThan(0);
    // The jobs: every plain function runScheduled awaits (`await publishLeftoverEvents(env, now)`).
    const jobs = calls(functionNamed('src/scheduled.ts', 'runScheduled'))
      .filter((call) => ts.isAwaitExpression(call.parent) && ts.isIdentifier(call.expression))
      .map((call) => call.expression.getText());
    expect(jobs.length).toBeGreaterThan(0);
    const documented = backticked(section(DOC, 'Queues and crons'));
    for (const name of [...crons, 'runScheduled', ...jobs]) expect(documented, `the doc names ${name}`).toContain(name);
  });

  it('names every folder of test/', () => {
    const folders = readdirSync(path.join(ROOT, 'test'), { withFileTypes: true }).filter((entry) => entry.isDirectory());
    expect(folders.length).toBeGreaterThan(0);
    const documented = backticked(section(DOC, 'Tests by folder'));
    for (const folder of folders) expect(documented, `the doc names test/${folder.name}/`).toContain(`test/${folder.name}/`);
  });
});
