import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Checks the links of README.md and docs/**/*.md: a relative link must name a file of the repository
// (never a path that leaves it), and a #anchor must match a heading of its file, slugged as GitHub does.
// External links (http, https, mailto) are not checked.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function markdownFiles(): string[] {
  const docs = path.join(ROOT, 'docs');
  const found = existsSync(docs)
    ? readdirSync(docs, { recursive: true, encoding: 'utf8' })
        .filter((name) => name.endsWith('.md'))
        .map((name) => path.join(docs, name))
    : [];
  return [path.join(ROOT, 'README.md'), ...found.sort()];
}

/** The lines outside fenced code blocks, each with its 1-based line number. */
function proseLines(markdown: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fence: string | null = null;
  markdown.split('\n').forEach((text, i) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(text);
    if (marker) {
      const opened = marker[1]![0]!;
      if (fence === null) fence = opened;
      else if (opened === fence) fence = null;
      return;
    }
    if (fence === null) out.push({ line: i + 1, text });
  });
  return out;
}

/** GitHub's heading anchor: inline markup dropped, lowercased, punctuation but hyphens and underscores removed, spaces to hyphens. */
export function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images: their text
    .replace(/<[^>]+>/g, '') // inline HTML tags
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** Every anchor the file's headings produce, with GitHub's -1, -2 suffixes for repeats. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const { text } of proseLines(markdown)) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (!m) continue;
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    result.add(n === 0 ? base : `${base}-${n}`);
  }
  return result;
}

/** The link targets of a file (inline links, images, reference definitions, href/src attributes), outside code. */
function links(markdown: string): { line: number; target: string }[] {
  const out: { line: number; target: string }[] = [];
  for (const { line, text } of proseLines(markdown)) {
    const prose = text.replace(/`[^`]*`/g, '');
    for (const m of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push({ line, target: m[1]! });
    for (const m of prose.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/g)) out.push({ line, target: m[1]! });
    for (const m of prose.matchAll(/\b(?:href|src)="([^"]+)"/g)) out.push({ line, target: m[1]! });
  }
  return out;
}

type Problem = string;

function check(file: string, markdown = readFileSync(file, 'utf8')): Problem[] {
  const problems: Problem[] = [];
  const where = (line: number) => `${path.relative(ROOT, file)}:${line}`;
  for (const { line, target } of links(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto: ...: external, not checked
    const [rawPath, anchor] = target.split('#', 2) as [string, string | undefined];
    const linkPath = decodeURIComponent(rawPath);
    const resolved = linkPath === '' ? file : linkPath.startsWith('/') ? path.join(ROOT, linkPath) : path.resolve(path.dirname(file), linkPath);
    const inRepo = path.relative(ROOT, resolved);
    if (inRepo.startsWith('..') || path.isAbsolute(inRepo)) {
      problems.push(`${where(line)}: ${target} points outside the repository`);
      continue;
    }
    if (!existsSync(resolved)) {
      problems.push(`${where(line)}: ${target}: no such file ${inRepo}`);
      continue;
    }
    if (anchor !== undefined && anchor !== '' && resolved.endsWith('.md') && statSync(resolved).isFile()) {
      if (!anchors(readFileSync(resolved, 'utf8')).has(anchor.toLowerCase())) {
        problems.push(`${where(line)}: ${target}: no heading in ${inRepo} slugs to #${anchor}`);
      }
    }
  }
  return problems;
}

describe('slug (GitHub heading anchors)', () => {
  it('lowercases, drops punctuation but hyphens, turns spaces into hyphens', () => {
    expect(slug('A five-minute tour')).toBe('a-five-minute-tour');
    expect(slug('Watching deliveries locally: `npm run webhooks:listen`')).toBe('watching-deliveries-locally-npm-run-webhookslisten');
    expect(slug('Why server-rendered hono/jsx')).toBe('why-server-rendered-honojsx');
    expect(slug('Content: pages, menus, banners')).toBe('content-pages-menus-banners');
    expect(slug('[Linked](x.md) *heading*')).toBe('linked-heading');
  });

  it('numbers repeated headings', () => {
    expect([...anchors('# Tests\n\n## Tests\n\n```sh\n# not a heading\n```\n')]).toEqual(['tests', 'tests-1']);
  });
});

describe('documentation links', () => {
  it('finds the README and the guides', () => {
    const names = markdownFiles().map((f) => path.relative(ROOT, f));
    expect(names).toContain('README.md');
    expect(names.filter((n) => n.startsWith('docs'))).not.toEqual([]);
  });

  it('flags a missing file, a missing anchor and a path outside the repository', () => {
    const probe = path.join(ROOT, 'docs', 'probe.md'); // a file that need not exist: links resolve from docs/
    const problems = check(probe, '[a](nope.md) [b](api.md#no-such-heading) [c](../../elsewhere/SPEC.md) `[d](nope.md)` [e](https://example.com/x)\n');
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/no such file/);
    expect(problems[1]).toMatch(/no heading in docs\/api.md slugs to #no-such-heading/);
    expect(problems[2]).toMatch(/outside the repository/);
  });

  for (const file of markdownFiles()) {
    it(`${path.relative(ROOT, file)} has no broken links`, () => {
      expect(check(file)).toEqual([]);
    });
  }
});
