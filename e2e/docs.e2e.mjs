// Runs every code example of README.md, docs/*.md and clients/{typescript,python,php}/README.md
// against a Worker of its own, as a newcomer would after `npm run dev`. Run: npm run test:docs
// (DOCS_VERBOSE=1 prints what each block printed; DOCS_ONLY=docs/api.md runs one document).
//
// Each document gets a fresh Worker (e2e/seeded-worker.mjs: the demo data, an admin key in
// `.wrangler/dev-admin-key` of a directory standing for the repository, where its commands run) and
// is run twice against it, each time in a new bash session: its blocks run in order in that session,
// so a variable or a file one block makes is there for the next, as when pasting them into one
// terminal. The second pass pastes the document again against the same store and data, so what it
// creates must not clash with what the first made (names, slugs, emails and codes unique per run, as
// the README tour makes them), and every output block must hold on both passes: an output that
// depends on what the store already holds says so in the text and uses `…`. Documents run two at a time.
//
// Every fenced block is one of these (the comments go on the line(s) right above the fence):
//
//   ```sh / bash          run in the session with `set -euo pipefail`; a failing command fails the document
//   ```js / ts / python / php
//                         saved as a file in the session's directory and run there: `node x.mjs`,
//                         `npx tsx x.mts`, `python3 x.py` (clients/python on PYTHONPATH, as its README
//                         allows), `php -d auto_prepend_file=$AUTOLOAD x.php` (a missing `<?php` added;
//                         $AUTOLOAD is clients/php/autoload.php, as its README sets it). The directory
//                         has the repository's wrangler.toml and node_modules (links), and the
//                         TypeScript client in node_modules/@store-api/client, as `npm install <path>` puts it.
//   <!-- docs-test: file NAME -->       saves the block as NAME (a ```csv file a block sends: saved before
//                         the document's first block runs; or the name the text tells the reader to save
//                         code as, saved and run in its turn)
//   <!-- docs-test: run COMMAND -->     runs the saved file with COMMAND, as the text says to run it
//   <!-- docs-test: serve URL -->       for a server the text says to open: it is started in the
//                         background (ended with the session) and URL is read once it answers; the
//                         port 3000 in the block, its run command and URL becomes a free one
//   <!-- docs-test: setup COMMAND -->   a shell command run first, for what the text states in words
//                         ("$KEY is the admin key"); use sparingly: a visible block is better
//   <!-- docs-test: prepend CODE -->    a line of code put before a fragment's own, for what the text
//                         says it goes on from ("store is the client of the quick start")
//   <!-- docs-test: output -->          a ```text or ```json block: what the run block before it prints.
//                         Compared after replacing ids, keys, tokens and times on both sides
//                         (e2e/docs-blocks.mjs); in it `…` stands for any text within a line, and a
//                         line of only `…` for any lines
//   <!-- docs-test: skip (reason) -->   not run, for the reason given (deploys, needs Stripe, a browser...)
//   <!-- tour -->                       the README tour, run by `npm run test:readme` (e2e/readme.e2e.mjs)
//   <!-- docs-test: after README.md --> on a line of its own: that document's shell blocks (the tour
//                         included) run first in the same session, for a guide that goes on from it
//
// Any other info string (text, json, csv, http, toml...) is not code and is not run. A block of a
// runnable language (html included) that is neither run nor skipped with a reason fails the test, so
// a new example cannot go untested by accident; test/docs-examples.node.test.ts checks the same in
// `npm test`.
//
// In a shell block, a `curl` command followed by a comment giving a status (`# 204`, `# 404: a draft`,
// on its last line or on a comment line of its own right after it) asserts that status.
//
// The docs take the API's port from PORT, 8787 (`npm run dev`'s) when it is unset, as the README tour
// does: `PORT=${PORT:-8787}`, `http://127.0.0.1:${PORT:-8787}/api`; in client code `process.env.PORT ?? 8787`,
// `os.environ.get('PORT', '8787')`, `getenv('PORT') ?: '8787'`. The runner sets PORT to its Worker's
// port and changes nothing in the blocks; the Worker is never on 8787 (freePort in e2e/server.mjs),
// so an example that hard-codes 8787 fails here as it would for a reader on another port.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ROOT } from '../scripts/lib/wrangler.mjs';
import { compareOutput, documents, EXTENSION, parseDocument, planBlocks, withStatusChecks } from './docs-blocks.mjs';
import { prepareSeededHome, startSeededWorker } from './seeded-worker.mjs';
import { freePort } from './server.mjs';

const BLOCK_TIMEOUT_MS = 120_000;
const verbose = process.env.DOCS_VERBOSE === '1';

/** One bash process per document, fed its blocks one at a time; its own process group, so background jobs end with it. */
class Session {
  constructor({ cwd, env }) {
    this.child = spawn('bash', ['--noprofile', '--norc', '-s'], { cwd, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    this.stdout = '';
    this.stderr = '';
    this.nonce = randomBytes(6).toString('hex');
    this.count = 0;
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code ?? 128)));
    this.child.stdout.setEncoding('utf8').on('data', (d) => (this.stdout += d));
    this.child.stderr.setEncoding('utf8').on('data', (d) => (this.stderr += d));
    this.child.stdin.on('error', () => {}); // a shell that exited: reported by run()
  }

  /** Runs `script`; resolves { ok, code, stdout, stderr } with what this script printed. */
  async run(script, timeoutMs = BLOCK_TIMEOUT_MS) {
    const mark = `@@docs-test-${this.nonce}-${++this.count}@@`;
    const from = { out: this.stdout.length, err: this.stderr.length };
    this.child.stdin.write(`{\n${script.trim() || ':'}\n} </dev/null\nprintf '\\n%s\\n' '${mark}' >&2; printf '\\n%s\\n' '${mark}'\n`);
    const end = `\n${mark}\n`;
    const until = Date.now() + timeoutMs;
    let code = null;
    let timedOut = false;
    const exited = this.exited.then((c) => (code = c));
    while (!(this.stdout.includes(end, from.out) && this.stderr.includes(end, from.err)) && code === null) {
      if (Date.now() > until) {
        timedOut = true;
        break;
      }
      await Promise.race([exited, new Promise((r) => setTimeout(r, 50))]);
    }
    const cut = (text, start) => {
      const at = text.indexOf(end, start);
      return at === -1 ? text.slice(start) : text.slice(start, at);
    };
    return { ok: code === null && !timedOut, code, timedOut, stdout: cut(this.stdout, from.out), stderr: cut(this.stderr, from.err) };
  }

  async close() {
    try {
      process.kill(-this.child.pid, 'SIGTERM');
    } catch {}
    await Promise.race([this.exited, new Promise((r) => setTimeout(r, 5000))]);
  }
}

/** The shell's settings and the status check used by `# 204` comments. */
const PRELUDE = path.join(ROOT, 'e2e', 'docs-prelude.sh');

const RUN_COMMAND = {
  js: (file) => `node ${file}`,
  ts: (file) => `npx tsx ${file}`,
  python: (file) => `python3 ${file}`,
  php: (file) => `php -d auto_prepend_file="$AUTOLOAD" ${file}`,
};
const FILE_EXTENSION = { ...EXTENSION, ts: 'mts' };

/** The shell script that runs one planned block (saving its file first, for a file or non-shell block). */
async function scriptFor(step, { cwd }) {
  // A server example listens on 3000 in the text; here on a free port, so two documents never clash.
  const appPort = step.serve ? String(await freePort()) : null;
  const local = (text) => (appPort ? text.replace(/\b3000\b/g, appPort) : text);
  const setup = step.setup.map(local);
  if (step.action === 'file' || step.lang !== 'sh') {
    const name = step.file ?? `example-${step.line}.${FILE_EXTENSION[step.lang]}`;
    let body = [...step.prepend, step.code].join('\n');
    if (step.lang === 'php') body = `<?php\n${[...step.prepend, step.code.replace(/^\s*<\?php\s*\n/, '')].join('\n')}`;
    await writeFile(path.join(cwd, name), `${local(body)}\n`, 'utf8');
    if (step.action === 'file') return setup.join('\n');
    const run = step.run ? local(step.run) : RUN_COMMAND[step.lang](name);
    // Started in the background (it ends with the session), then its page read as a browser would.
    if (step.serve) return [...setup, `(${run}) > ${name}.log 2>&1 &`, `__docs_open ${local(step.serve)} ${name}.log`].join('\n');
    return [...setup, run].join('\n');
  }
  return [...setup, withStatusChecks(step.code)].join('\n');
}

function describeFailure(doc, step, result, reason) {
  const code = step.code.split('\n').slice(0, 12).join('\n');
  return `${doc}:${step.line} (\`\`\`${step.info}) ${reason}\n--- the block\n${code}\n` + `--- stdout\n${result.stdout.trimEnd()}\n--- stderr\n${result.stderr.trimEnd()}`;
}

async function loadPlan(doc) {
  const parsed = parseDocument(await readFile(path.join(ROOT, doc), 'utf8'));
  const { plan, errors } = planBlocks(parsed.blocks);
  return { plan, after: parsed.after, errors: [...parsed.errors, ...errors] };
}

/**
 * Makes the Worker's home look like the repository to the commands run in it: its wrangler.toml (so
 * `npx wrangler d1 execute DB --local` reads the Worker's D1 in .wrangler/state) and a node_modules
 * of links to the repository's packages, plus the TypeScript client where `npm install <path>` puts it.
 */
async function furnish(home) {
  await copyFile(path.join(ROOT, 'wrangler.toml'), path.join(home, 'wrangler.toml'));
  const modules = path.join(ROOT, 'node_modules');
  await mkdir(path.join(home, 'node_modules', '@store-api'), { recursive: true });
  for (const name of await readdir(modules)) await symlink(path.join(modules, name), path.join(home, 'node_modules', name));
  await symlink(path.join(ROOT, 'clients', 'typescript'), path.join(home, 'node_modules', '@store-api', 'client'));
}

const PASSES = ['first', 'second'];

async function runDocument(t, doc, template) {
  const { plan, after: before, errors } = await loadPlan(doc);
  assert.deepEqual(errors, [], `${doc}: ${errors.join('; ')}`);
  const steps = plan.filter((s) => s.action === 'run' || s.action === 'file');
  if (!steps.some((s) => s.action === 'run')) {
    t.diagnostic(`nothing to run (${plan.filter((s) => s.action === 'skip').length} skipped)`);
    return;
  }
  const worker = await startSeededWorker({ template, label: 'docs' });
  const cwd = worker.home;
  await furnish(cwd);
  const env = {
    ...process.env,
    PORT: String(worker.port),
    PYTHONPATH: path.join(ROOT, 'clients', 'python'),
    AUTOLOAD: path.join(ROOT, 'clients', 'php', 'autoload.php'),
    NO_COLOR: '1',
  };
  // What a reader's new terminal does not have.
  for (const name of ['NODE_TEST_CONTEXT', 'KEY', 'API', 'TOKEN', 'STORE_API_KEY', 'STORE_API_BASE', 'STORE_API_URL', 'STORE_ADMIN_KEY', 'API_PORT']) delete env[name];
  const theirs = [];
  for (const other of before) theirs.push({ other, plan: (await loadPlan(other)).plan });
  let current = null;
  try {
    // The document pasted twice against the same store, each time into a new terminal: the second
    // pass proves its names, codes and emails do not clash with the first's, and its output holds.
    for (const pass of PASSES) {
      const when = pass === 'first' ? '' : ` (${pass} pass: pasted again, against the same store)`;
      const session = new Session({ cwd, env });
      try {
        const prelude = await session.run(await readFile(PRELUDE, 'utf8'));
        assert.ok(prelude.ok, `the shell did not start: ${prelude.stderr}`);
        for (const { other, plan: blocks } of theirs) {
          for (const step of blocks.filter((s) => s.lang === 'sh' && (s.action === 'tour' || s.action === 'run'))) {
            current = { step, pass };
            const result = await session.run(await scriptFor(step, { cwd }));
            assert.ok(result.ok, describeFailure(other, step, result, `(run first, as ${doc} goes on from it) failed${when}`));
          }
        }
        // Files come first: a command may send the example file that the text shows after it.
        for (const step of steps.filter((s) => s.action === 'file')) await session.run(await scriptFor(step, { cwd }));
        for (const step of steps.filter((s) => s.action === 'run')) {
          current = { step, pass };
          const result = await session.run(await scriptFor(step, { cwd }));
          if (verbose) t.diagnostic(`${doc}:${step.line}${when}\n${result.stdout}${result.stderr}`);
          const why = result.timedOut ? `did not finish within ${BLOCK_TIMEOUT_MS / 1000}s` : `failed (exit ${result.code})`;
          assert.ok(result.ok, describeFailure(doc, step, result, `${why}${when}`));
          if (step.expected) {
            const difference = compareOutput(result.stdout, step.expected.code);
            assert.ok(
              difference === null,
              describeFailure(doc, step, result, `printed what the text does not say (output block at line ${step.expected.line})${when}: ${difference}`),
            );
          }
        }
      } finally {
        await session.close();
      }
    }
  } catch (error) {
    // What the Worker logged helps when a request hung or failed on its side.
    const log = worker.output.join('').split('\n').slice(-30).join('\n');
    error.message += `\n--- the Worker's last lines${current ? ` (during line ${current.step.line}, ${current.pass} pass)` : ''}\n${log}`;
    throw error;
  } finally {
    await worker.stop();
  }
}

let template;

before(async () => {
  // The TypeScript client's examples import the built package (clients/typescript/dist).
  const build = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'clients/typescript'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(build.status, 0, `tsc -p clients/typescript failed:\n${build.stdout}${build.stderr}`);
  template = await prepareSeededHome('docs');
});

after(async () => {
  if (template) await rm(template, { recursive: true, force: true });
});

const only = process.env.DOCS_ONLY?.split(',');
describe('every code example in the docs runs and prints what the text says', { concurrency: 2 }, () => {
  for (const doc of documents(ROOT)) {
    if (only && !only.includes(doc)) continue;
    test(doc, { timeout: 10 * 60_000 }, (t) => runDocument(t, doc, template));
  }
});
