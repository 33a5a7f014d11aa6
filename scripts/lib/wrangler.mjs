// Runs the project's own wrangler (node_modules/wrangler) non-interactively, for the local D1 database.
//
// Every call spawns `node node_modules/wrangler/bin/wrangler.js ...` with stdin closed and stdout/stderr
// piped: wrangler then treats the session as non-interactive, so `d1 migrations apply` takes its
// confirmation's fallback answer ("yes") instead of prompting, and nothing waits for a keyboard. Each
// call costs about 2-3 s (wrangler boots Miniflare for local D1), so callers batch their SQL.

import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const WRANGLER_JS = path.join(ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js');
/** The D1 binding in wrangler.toml. */
export const DB_BINDING = 'DB';

export class WranglerError extends Error {
  constructor(message, { args, code, signal, stdout = '', stderr = '' } = {}) {
    super(message);
    this.name = 'WranglerError';
    this.args = args;
    this.code = code;
    this.signal = signal;
    this.stdout = stdout;
    this.stderr = stderr;
  }

  /** Everything wrangler printed, headed by its command line, for showing on failure. */
  get output() {
    const out = [this.stdout.trim(), this.stderr.trim()].filter(Boolean).join('\n');
    return `--- wrangler ${this.args?.join(' ') ?? ''} ---\n${out || '(no output)'}`;
  }
}

export function assertWranglerInstalled() {
  if (!existsSync(WRANGLER_JS)) {
    throw new Error(`wrangler is not installed (${path.relative(ROOT, WRANGLER_JS)} is missing): run \`npm install\` first.`);
  }
}

/**
 * What keeps local wrangler quiet and offline-friendly: no telemetry or error reports, no banner
 * (its update check asks the npm registry; the version is pinned on purpose, see scripts/dev.mjs),
 * and no download of the `request.cf` sample from workers.cloudflare.com (the Worker reads no
 * `request.cf`; offline, that fetch printed a stack trace). A variable the caller set still wins.
 */
export const QUIET_WRANGLER = {
  WRANGLER_SEND_METRICS: 'false',
  WRANGLER_SEND_ERROR_REPORTS: 'false',
  WRANGLER_HIDE_BANNER: 'true',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
};

/** The environment for wrangler child processes: QUIET_WRANGLER under the caller's own variables, then `extra`. */
export function wranglerEnv(extra = {}) {
  return { ...QUIET_WRANGLER, ...process.env, ...extra };
}

/** The installed wrangler's version (package.json pins it). */
export function wranglerVersion() {
  try {
    return JSON.parse(readFileSync(path.join(ROOT, 'node_modules', 'wrangler', 'package.json'), 'utf8')).version;
  } catch {
    return 'unknown';
  }
}

/** Spawns wrangler with its output piped (not shown). Resolves { code, signal, stdout, stderr }. */
export function runWrangler(args, { env } = {}) {
  assertWranglerInstalled();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WRANGLER_JS, ...args], {
      cwd: ROOT,
      env: env ?? wranglerEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Like runWrangler, but rejects with a WranglerError (carrying the output) unless wrangler exits 0. */
export async function runWranglerOk(args, what = `wrangler ${args.slice(0, 3).join(' ')}`) {
  const result = await runWrangler(args);
  if (result.code !== 0) {
    const how = result.signal ? `was killed by ${result.signal}` : `exited with code ${result.code}`;
    throw new WranglerError(`${what} failed: wrangler ${how}`, { args, ...result });
  }
  return result;
}

/**
 * `wrangler d1 migrations apply DB --local`. Returns the names of the migrations it applied
 * (empty when the database was already up to date).
 */
/**
 * "Applied 45 D1 migrations (0000_init.sql … 0044_notes.sql)": a first run applies every migration,
 * and one line naming them all is unreadable. Up to three are named.
 */
export function describeAppliedMigrations(names) {
  if (names.length === 0) return 'Local D1 database is up to date';
  const which = names.length <= 3 ? names.join(', ') : `${names[0]} … ${names[names.length - 1]}`;
  return `Applied ${names.length} D1 migration${names.length === 1 ? '' : 's'} to the local database (${which})`;
}

/** Parses `wrangler d1 execute --json` output (an array of result sets, or { error }). */
function parseD1Json(stdout) {
  const start = stdout.search(/^\s*[[{]/m);
  if (start === -1) return undefined;
  try {
    return JSON.parse(stdout.slice(start));
  } catch {
    return undefined;
  }
}

async function d1Execute(inputArgs, what) {
  const args = ['d1', 'execute', DB_BINDING, '--local', '--json', ...inputArgs];
  const result = await runWrangler(args);
  const parsed = parseD1Json(result.stdout);
  if (result.code !== 0 || !Array.isArray(parsed)) {
    const reason = parsed?.error?.text ?? (result.signal ? `wrangler was killed by ${result.signal}` : `wrangler exited with code ${result.code}`);
    throw new WranglerError(`${what} failed: ${reason}`, { args, ...result });
  }
  return parsed.map((set) => set.results ?? []);
}

/** Runs SQL (one or more `;`-separated statements) against the local D1; resolves one row array per statement. */
export function d1Query(sql, what = 'Querying the local D1 database') {
  return d1Execute(['--command', sql], what);
}

/**
 * Runs a SQL script against the local D1 via `--file` (wrangler runs all its statements as one D1
 * batch, i.e. one transaction). Resolves one row array per statement.
 */
export async function d1ExecuteScript(sql, what = 'Writing to the local D1 database') {
  const dir = await mkdtemp(path.join(tmpdir(), 'store-d1-'));
  const file = path.join(dir, 'script.sql');
  try {
    await writeFile(file, sql, 'utf8');
    return await d1Execute(['--file', file], what);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escapes start with ESC and end with BEL.
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007]*\u0007/g;
export function stripAnsi(text) {
  return text.replace(ANSI, '');
}
