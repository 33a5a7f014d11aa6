// The bytes a bundle owes to each package, from esbuild's metafile (`wrangler deploy --metafile`):
// every input's bytesInOutput summed under its package (the innermost node_modules/<name> or
// node_modules/@scope/<name> of its path) or, for the project's own code, src/<top folder>.

import { readFileSync } from 'node:fs';

/** The package (or src/ folder) an input path of the metafile belongs to. */
export function packageOf(input) {
  const parts = input.split('/');
  const at = parts.lastIndexOf('node_modules');
  if (at >= 0) return parts[at + 1]?.startsWith('@') ? `${parts[at + 1]}/${parts[at + 2]}` : parts[at + 1];
  if (parts[0] === 'src') return parts.length > 2 ? `src/${parts[1]}/` : 'src/';
  return input;
}

/** The metafile's JavaScript output: its bytes, and per package [{ name, bytes, share }], largest first (share of the output's bytes). */
export function bytesByPackage(metafilePath) {
  const meta = JSON.parse(readFileSync(metafilePath, 'utf8'));
  const totals = new Map();
  let bytes = 0;
  for (const [file, output] of Object.entries(meta.outputs)) {
    if (file.endsWith('.map')) continue;
    bytes += output.bytes;
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const name = packageOf(input);
      totals.set(name, (totals.get(name) ?? 0) + bytesInOutput);
    }
  }
  const packages = [...totals].map(([name, n]) => ({ name, bytes: n, share: n / bytes })).sort((a, b) => b.bytes - a.bytes);
  return { bytes, packages };
}
