import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without types
import { compareOutput, documents, parseDocument, planBlocks, withStatusChecks } from '../e2e/docs-blocks.mjs';

// The rules `npm run test:docs` (e2e/docs.e2e.mjs) runs the docs' examples by, checked without a
// Worker: every block of a runnable language is run or skipped with a reason, output blocks follow a
// block that runs, and the comparison and the `# 204` status check fail on a different answer.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('the docs mark every code example', () => {
  for (const doc of documents(ROOT)) {
    it(`${doc}: each block is run, skipped with a reason, an output block or not code`, () => {
      const parsed = parseDocument(readFileSync(path.join(ROOT, doc), 'utf8'));
      const { errors } = planBlocks(parsed.blocks);
      expect([...parsed.errors, ...errors]).toEqual([]);
      for (const other of parsed.after) expect(documents(ROOT)).toContain(other);
    });
  }
});

describe('parseDocument and planBlocks', () => {
  it('reads markers, and refuses an unmarked html block and a skip without a reason', () => {
    const md = [
      '<!-- docs-test: skip (deploys) -->',
      '```sh',
      'npx wrangler deploy',
      '```',
      '',
      '<!-- docs-test: file a.mjs -->',
      '<!-- docs-test: run node a.mjs -->',
      '```js',
      'console.log(1)',
      '```',
      '<!-- docs-test: output -->',
      '```text',
      '1',
      '```',
      '```html',
      '<p>',
      '```',
      '<!-- docs-test: skip -->',
      '```sh',
      'true',
      '```',
    ].join('\n');
    const parsed = parseDocument(md);
    const { plan, errors } = planBlocks(parsed.blocks);
    expect(plan.map((s: { action: string }) => s.action)).toEqual(['skip', 'run', 'output', 'unmarked', 'run']);
    expect(plan[1]).toMatchObject({ file: 'a.mjs', run: 'node a.mjs', expected: { code: '1' } });
    expect(errors).toEqual([expect.stringMatching(/^line 15: .*html/)]);
    expect(parsed.errors).toEqual([expect.stringMatching(/^line 18: .*needs a reason/)]);
  });

  it('refuses an output block with no block that runs before it', () => {
    const { errors } = planBlocks(parseDocument('```json\n{}\n```\n<!-- docs-test: output -->\n```text\nx\n```\n').blocks);
    expect(errors).toEqual([expect.stringMatching(/must follow a block that runs/)]);
  });
});

describe('compareOutput', () => {
  it('ignores ids, keys and times, and lets … stand for any text', () => {
    const actual = 'order ord_01M8C61Y326KVKPGAYQ5WK2TPF at 2026-11-26T15:02:17.954Z, key sk_N6SWQiQi5b5TRDrdWecVHHlRh42liEVsTg0E\nextra\nlast  \n';
    expect(compareOutput(actual, 'order ord_01K... at 2026-01-02T03:04:05.000Z, key sk_…\n…\nlast')).toBeNull();
    expect(compareOutput('4 t-shirts at 30 or less\n', '4 t-shirts at 30 or less')).toBeNull();
  });

  it('fails on a different answer', () => {
    expect(compareOutput('5 t-shirts at 30 or less\n', '4 t-shirts at 30 or less')).toMatch(/differs/);
    expect(compareOutput('28 L Daypack 89\n', '28 L Daypack 89\nRoll-Top Dry Bag 34')).toMatch(/differs/);
    expect(compareOutput('a\nb\n', 'a')).toMatch(/differs/);
  });
});

describe('status comments in shell blocks', () => {
  it('put a curl command whose comment gives a status through __docs_status', () => {
    const code = [
      "curl -s -o /dev/null -w '%{http_code}\\n' $API/x   # 401: revoked",
      'curl -s -X POST $API/y \\',
      '  -d {}',
      '# 201, data.key: "pk_..."',
      'curl -s $API/z   # "a message", not a status',
    ].join('\n');
    expect(withStatusChecks(code).split('\n')).toEqual([
      "__docs_status 401 curl -s -o /dev/null -w '%{http_code}\\n' $API/x   # 401: revoked",
      '__docs_status 201 curl -s -X POST $API/y \\',
      '  -d {}',
      '# 201, data.key: "pk_..."',
      'curl -s $API/z   # "a message", not a status',
    ]);
  });

  // A stand-in for curl that answers 404 with a body, or prints the status itself when asked with -w.
  const fakeCurl = `curl() { printf '{"error":1}'; for a in "$@"; do [ "$a" = '\\n%{http_code}' ] && printf '\\n404'; done; return 0; }`;
  const bash = (script: string) => spawnSync('bash', ['-c', `${readFileSync(path.join(ROOT, 'e2e', 'docs-prelude.sh'), 'utf8')}\n${fakeCurl}\n${script}`], { encoding: 'utf8' });

  it('__docs_status passes on the status the text says and prints the body', () => {
    const result = bash('__docs_status 404 curl -s http://x/');
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('{"error":1}\n');
  });

  it('__docs_status fails on another status', () => {
    const result = bash('__docs_status 200 curl -s http://x/');
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('the text says HTTP 200, the API answered 404');
  });
});
