// Reads the code blocks of a Markdown document and the `docs-test` markers that say what to do with
// each (the convention is described in e2e/docs.e2e.mjs and docs/contributing.md), and compares what
// an example printed with the output block that follows it. No Worker needed: used by
// e2e/docs.e2e.mjs, and by test/docs-examples.node.test.ts to refuse an unmarked block in `npm test`.

import { readdirSync } from 'node:fs';
import path from 'node:path';

/** The documents whose examples run: README.md, docs/*.md, the three clients' READMEs. */
export function documents(root) {
  const docs = readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort();
  return ['README.md', ...docs.map((f) => `docs/${f}`), ...['typescript', 'python', 'php'].map((c) => `clients/${c}/README.md`)];
}

/** Info strings of code that runs, by the language the runner runs it as. */
export const RUNNABLE = {
  sh: 'sh',
  bash: 'sh',
  shell: 'sh',
  js: 'js',
  mjs: 'js',
  javascript: 'js',
  ts: 'ts',
  typescript: 'ts',
  python: 'python',
  py: 'python',
  php: 'php',
  // A page needs a browser: there is no runner for it, so every html block must say why it is skipped.
  html: 'html',
};

/** What a runnable block is saved as when no `file NAME` marker names it. */
export const EXTENSION = { js: 'mjs', ts: 'ts', python: 'py', php: 'php' };

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)[^\n]*$/;
const COMMENT = /^\s*<!--\s*([\s\S]*?)\s*-->\s*$/;
const DIRECTIVE = /^docs-test:\s*(skip|output|file|run|serve|setup|prepend|after)\b\s*([\s\S]*)$/;

/**
 * The document's code blocks in order, each { line, info, lang (RUNNABLE's, or null), code, tour,
 * skip (the reason), output, file, run, serve, setup: [], prepend: [] }, and `after`: the documents whose shell blocks
 * run first (`<!-- docs-test: after README.md -->` on a line of its own). A malformed or unknown
 * docs-test comment is an error, listed in `errors` with its line.
 */
export function parseDocument(markdown) {
  const lines = markdown.split('\n');
  const blocks = [];
  const after = [];
  const errors = [];
  let pending = []; // the comments directly above the next fence (blank lines between are fine)
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = FENCE.exec(line);
    if (fence) {
      const [, indent, marks, info] = fence;
      const code = [];
      let j = i + 1;
      for (; j < lines.length; j++) {
        const close = lines[j].trim();
        if (close.startsWith(marks[0].repeat(marks.length)) && /^[`~]+$/.test(close)) break;
        code.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j].trimStart());
      }
      const block = {
        line: i + 1,
        info,
        lang: RUNNABLE[info.toLowerCase()] ?? null,
        code: code.join('\n'),
        tour: false,
        skip: null,
        output: false,
        file: null,
        run: null,
        serve: null,
        setup: [],
        prepend: [],
      };
      for (const { text, line: at } of pending) {
        if (/^tour$/.test(text)) {
          block.tour = true;
          continue;
        }
        const d = DIRECTIVE.exec(text);
        if (!d) continue;
        const [, verb, rest] = d;
        if (verb === 'after') continue;
        if (verb === 'skip') {
          const reason = /^\((.+)\)$/.exec(rest.trim());
          if (!reason) errors.push(`line ${at}: "docs-test: skip" needs a reason in parentheses`);
          else block.skip = reason[1];
        } else if (verb === 'output') block.output = true;
        else if (verb === 'file') {
          if (!/^[\w.-]+$/.test(rest.trim())) errors.push(`line ${at}: "docs-test: file" needs a file name`);
          else block.file = rest.trim();
        } else if (verb === 'run') block.run = rest.trim();
        else if (verb === 'serve') block.serve = rest.trim();
        else if (verb === 'setup') block.setup.push(rest.trim());
        else if (verb === 'prepend') block.prepend.push(rest.trim());
      }
      blocks.push(block);
      pending = [];
      i = j;
      continue;
    }
    const comment = COMMENT.exec(line);
    if (comment) {
      const text = comment[1];
      if (/^docs-test\b/.test(text)) {
        const d = DIRECTIVE.exec(text);
        if (!d) errors.push(`line ${i + 1}: unknown docs-test marker "${text}"`);
        else if (d[1] === 'after') after.push(d[2].trim());
      }
      pending.push({ text, line: i + 1 });
    } else if (line.trim() !== '') {
      pending = [];
    }
  }
  return { blocks, after, errors };
}

/**
 * What the runner does with each block: 'run', 'tour' (run by e2e/readme.e2e.mjs), 'skip', 'output'
 * (compared with the run block before it), 'file' (data saved for the next blocks), 'text' (not code:
 * a non-runnable info string) or 'unmarked' (a runnable block that is neither run nor marked: an error).
 */
export function planBlocks(blocks) {
  const errors = [];
  let lastRun = null;
  const plan = blocks.map((block) => {
    let action;
    if (block.tour) action = 'tour';
    else if (block.skip) action = 'skip';
    else if (block.output) {
      action = 'output';
      if (!lastRun) errors.push(`line ${block.line}: an output block must follow a block that runs`);
      else if (lastRun.expected) errors.push(`line ${block.line}: the block at line ${lastRun.line} already has an output block`);
      else lastRun.expected = block;
    } else if (block.lang === 'html') action = 'unmarked';
    else if (block.lang) action = 'run';
    else if (block.file) action = 'file';
    else action = 'text';
    const step = { ...block, action };
    if (action === 'run') lastRun = step;
    else if (action !== 'output' && action !== 'text') lastRun = null;
    if (action === 'unmarked') errors.push(`line ${block.line}: a \`\`\`${block.info} block with no runner: mark it <!-- docs-test: skip (why) -->`);
    return step;
  });
  return { plan, errors };
}

// ---------------------------------------------------------------------------------------------
// Status comments in shell blocks

const STATUS_COMMENT = /\s#\s*(?:→\s*)?([1-5]\d\d)\b/;

/**
 * The shell block with each `curl` command that a status comment follows run through __docs_status.
 * A command spans lines ending in `\`; the comment ends its last line or is the next line on its own.
 */
export function withStatusChecks(code) {
  const lines = code.split('\n');
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const first = i;
    while (i < lines.length - 1 && /\\$/.test(lines[i])) i++;
    const command = lines.slice(first, i + 1);
    let want = STATUS_COMMENT.exec(command.at(-1))?.[1];
    const own = /^\s*#\s*(?:→\s*)?([1-5]\d\d)\b/.exec(lines[i + 1] ?? '');
    if (!want && own) want = own[1];
    if (want && /^\s*curl\s/.test(command[0])) command[0] = command[0].replace(/^(\s*)curl\s/, `$1__docs_status ${want} curl `);
    out.push(...command);
  }
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Comparing output

const NORMALISE = [
  // ANSI colours
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escapes start with ESC.
  [/\u001b\[[0-9;?]*[ -/]*[@-~]/g, ''],
  // ids (`prod_` + 26 Crockford base32 characters), however the doc abbreviates them (prod_01K...)
  [/\b([a-z]{2,8})_[0-9A-HJKMNP-TV-Z]{26}\b/g, '$1_…'],
  [/\b([a-z]{2,8})_01[0-9A-HJKMNP-TV-Z]*(?:\.\.\.|…)/g, '$1_…'],
  // keys and secrets
  [/\b(sk|pk|whsec)_[A-Za-z0-9+/=_-]{12,}/g, '$1_…'],
  [/\b(sk|pk|whsec)_(?:\.\.\.|…)/g, '$1_…'],
  // user tokens (JWTs) and cart tokens
  [/\beyJ[\w-]+\.[\w-]+\.[\w-]+/g, '<token>'],
  // timestamps: ISO dates and times, clock times
  [/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z\b/g, '<time>'],
  [/\b\d{2}:\d{2}:\d{2}\b/g, '<time>'],
];

/** The text with ids, keys, tokens and times replaced by placeholders, ANSI codes and trailing blanks removed. */
export function normaliseOutput(text) {
  let out = text.replace(/\r\n/g, '\n');
  for (const [pattern, replacement] of NORMALISE) out = out.replace(pattern, replacement);
  return out
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/^\n+|\n+$/g, '');
}

const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether `actual` output matches the `expected` block. Both are normalised first (normaliseOutput);
 * in `expected`, `…` matches any text within a line, and a line that is only `…` any number of lines.
 * Returns null when they match, else a message showing both.
 */
export function compareOutput(actual, expected) {
  const a = normaliseOutput(actual);
  const e = normaliseOutput(expected);
  const pattern = e
    .split('\n')
    .map((line) => (line.trim() === '…' ? '(?:[^\\n]*\\n)*?' : `${line.split('…').map(escapeRegExp).join('[^\\n]*')}\\n`))
    .join('');
  if (new RegExp(`^${pattern}$`).test(`${a}\n`)) return null;
  return `the output differs from the block the text shows.\n--- expected (normalised)\n${e}\n--- actual (normalised)\n${a}`;
}
