// `npm run deploy:check`: builds the production bundle as `wrangler deploy` would (`--dry-run
// --outdir`, nothing uploaded, no login needed) and reports its size against the Workers free plan's
// limit on the compressed Worker (3 MiB; 10 MiB on paid plans). Fails above the free plan's limit, so
// CI catches a dependency that would make the store undeployable for most users.
// --by-package: also the 15 largest parts of the bundle (packages and src/ folders), from esbuild's
// metafile (bench/lib/bundle-by-package.mjs; `npm run bench` reports the same in its cold start).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { bytesByPackage } from '../bench/lib/bundle-by-package.mjs';
import { ROOT, WRANGLER_JS, wranglerEnv } from './lib/wrangler.mjs';

export const FREE_PLAN_LIMIT = 3 * 1024 * 1024;

const byPackage = process.argv.includes('--by-package');
const outdir = mkdtempSync(path.join(tmpdir(), 'store-bundle-'));
try {
  const metafile = path.join(outdir, 'bundle-meta.json');
  const build = spawnSync(process.execPath, [WRANGLER_JS, 'deploy', '--dry-run', '--outdir', outdir, ...(byPackage ? ['--metafile', metafile] : [])], {
    cwd: ROOT,
    env: wranglerEnv(),
    encoding: 'utf8',
  });
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
  if (byPackage) {
    const { packages } = bytesByPackage(metafile);
    for (const p of packages.slice(0, 15)) console.log(`  ${kib(p.bytes).padStart(8)}  ${(100 * p.share).toFixed(1).padStart(5)}%  ${p.name}`);
  }
  if (gzip > FREE_PLAN_LIMIT) {
    console.error('✖ The bundle is over the Workers free plan limit: find what grew (npx esbuild --analyze) before deploying.');
    process.exit(1);
  }
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
