// npm run typecheck: the Worker's code and tests (tsconfig.json) and the Node tests (tsconfig.node.json,
// other `types`, so a second program), both at once: each takes ~30 s of one core, one after the other
// ~65 s of CI's two-core machine, side by side ~35 s. Exits non-zero when either finds an error.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './lib/wrangler.mjs';

const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

const check = (project) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [TSC, '--noEmit', '-p', project], { cwd: ROOT, stdio: 'inherit' });
    child.on('close', (code) => resolve(code ?? 1));
  });

const codes = await Promise.all(['tsconfig.json', 'tsconfig.node.json'].map(check));
process.exit(codes.some((code) => code !== 0) ? 1 : 0);
