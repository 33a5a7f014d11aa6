// npm run lint:openapi: lints the OpenAPI document the app serves with Redocly CLI (rules in redocly.yaml).
// The document is dumped afresh from the route declarations (scripts/openapi-dump.ts) to a temporary file,
// so what is linted is the code as it is now, not the committed clients/openapi.json. Exits non-zero on any
// error and on any operation-operationId* warning (the client libraries are named after operation ids).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const bin = (name) => join(ROOT, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  if (result.error) throw result.error;
  return result;
}

const dir = mkdtempSync(join(tmpdir(), 'store-openapi-'));
let exitCode = 0;
try {
  // Every API version's document (docs/versioning.md): each is served, so each must lint clean.
  const versions = run(bin('tsx'), ['-e', "import('./src/versions/versions.ts').then((m) => console.log(JSON.stringify(m.VERSION_DATES)))"]);
  if (versions.status !== 0) throw new Error(`listing the API versions failed: ${versions.stderr}`);
  for (const version of JSON.parse(versions.stdout)) {
    if (lintVersion(version)) exitCode = 1;
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(exitCode);

/** Lints the document of one API version; true when it fails. */
function lintVersion(version) {
  const file = join(dir, `openapi-${version}.json`);
  const dump = run(bin('tsx'), ['scripts/openapi-dump.ts', file, version]);
  if (dump.status !== 0) {
    process.stderr.write(dump.stdout + dump.stderr);
    throw new Error(`scripts/openapi-dump.ts failed (exit ${dump.status})`);
  }
  const lint = run(bin('redocly'), ['lint', file, '--config', 'redocly.yaml', '--format=json', '--max-problems=100000'], {
    // No telemetry, no update notice (both read by @redocly/cli itself).
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
  });
  let report;
  try {
    report = JSON.parse(lint.stdout);
  } catch {
    process.stderr.write(lint.stdout + lint.stderr);
    throw new Error(`redocly lint gave no JSON report (exit ${lint.status})`);
  }

  const problems = report.problems ?? [];
  const byRule = new Map();
  for (const problem of problems) {
    const key = `${problem.severity === 'error' ? 'error' : 'warning'} ${problem.ruleId}`;
    byRule.set(key, [...(byRule.get(key) ?? []), problem]);
  }
  for (const [key, list] of [...byRule].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`${key}: ${list.length}`);
    for (const problem of list) {
      const where = problem.location?.[0]?.pointer ?? '';
      console.log(`  ${where} ${problem.message}`);
    }
  }
  const { errors = 0, warnings = 0, ignored = 0 } = report.totals ?? {};
  console.log(`Redocly CLI lint of the served OpenAPI document of version ${version}: ${errors} errors, ${warnings} warnings, ${ignored} ignored.`);

  const operationIdWarnings = problems.filter((p) => p.severity !== 'error' && String(p.ruleId).startsWith('operation-operationId'));
  let failed = errors > 0 || lint.status !== 0;
  if (operationIdWarnings.length > 0) {
    console.log(`${operationIdWarnings.length} operation-operationId* warnings: every operation needs a unique, URL-safe operationId.`);
    failed = true;
  }
  return failed;
}
