// `npm run deploy:check`: builds the production bundle as `wrangler deploy` would (`--dry-run
// --outdir`, nothing uploaded, no login needed) and reports its size against the Workers free plan's
// limit on the compressed Worker (3 MiB; 10 MiB on paid plans). Fails above the free plan's limit, so
// CI catches a dependency that would make the store undeployable for most users.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT, WRANGLER_JS, wranglerEnv } from './lib/wrangler.mjs';

export const FREE_PLAN_LIMIT = 3 * 1024 * 1024;

const outdir = mkdtempSync(path.join(tmpdir(), 'store-bundle-'));
try {
  const build = spawnSync(process.execPath, [WRANGLER_JS, 'deploy', '--dry-run', '--outdir', outdir], { cwd: ROOT, env: wranglerEnv(), encoding: 'utf8' });
  if (build.status !== 0) {
    console.error(build.stdout, build.stderr);
    console.error('✖ wrangler deploy --dry-run failed');
    process.exit(1);
  }
  const files = readdirSync(outdir, { recursive: true }).filter((f) => /\.(m?js|wasm)$/.test(String(f)));
  const bytes = Buffer.concat(files.map((f) => readFileSync(path.join(outdir, String(f)))));
  const gzip = gzipSync(bytes, { level: 9 }).length;
  const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;
  const share = ((gzip / FREE_PLAN_LIMIT) * 100).toFixed(0);
  console.log(`Worker bundle: ${kib(bytes.length)}, ${kib(gzip)} gzip: ${share}% of the free plan's ${kib(FREE_PLAN_LIMIT)} compressed limit (${files.length} file(s)).`);
  if (gzip > FREE_PLAN_LIMIT) {
    console.error('✖ The bundle is over the Workers free plan limit: find what grew (npx esbuild --analyze) before deploying.');
    process.exit(1);
  }
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
