import { Marked } from 'marked';
import xss from 'xss';
import type * as Xss from 'xss';
import { isSafeUrl } from './safe-url';

// xss is CommonJS and sets some exports in a loop, which ESM named imports cannot see: take them off the module object.
const { FilterXSS, safeAttrValue } = xss as unknown as typeof Xss;

/**
 * Loaded on the first render of an isolate, by src/lib/markdown.ts only (`import()`): marked builds
 * its rules when it loads, about 10 ms of CPU that startup no longer spends (docs/architecture.md#startup).
 *
 * Markdown to sanitized HTML, for content pages: `marked` renders (GitHub-flavoured, raw HTML
 * passed through), then `xss` (an allowlist sanitizer that parses HTML without a DOM) keeps only
 * the tags and attributes below. Anything else is dropped: unknown tags (their text stays),
 * `<script>`/`<style>`/`<iframe>`-like elements with their content, comments, every event handler
 * and style attribute, and any link or image URL that is not http(s), mailto:, tel: or relative
 * (so no `javascript:`, `vbscript:` or `data:`, however encoded).
 */

const marked = new Marked({ gfm: true, async: false });

const ALLOWED: Record<string, string[]> = {
  a: ['href', 'title'],
  img: ['src', 'alt', 'title', 'width', 'height'],
  p: [],
  br: [],
  hr: [],
  h1: [],
  h2: [],
  h3: [],
  h4: [],
  h5: [],
  h6: [],
  strong: [],
  b: [],
  em: [],
  i: [],
  del: [],
  s: [],
  sub: [],
  sup: [],
  code: ['class'],
  pre: [],
  blockquote: [],
  ul: [],
  ol: ['start'],
  li: [],
  table: [],
  thead: [],
  tbody: [],
  tr: [],
  th: ['align'],
  td: ['align'],
};

/** Elements removed together with everything inside them. */
const DROPPED_WITH_CONTENT = ['script', 'style', 'iframe', 'object', 'embed', 'template', 'noscript', 'textarea', 'select', 'svg', 'math'];

/** An allowed attribute's value made safe, or '' to drop it. */
function safeValue(tag: string, name: string, value: string, cssFilter: Parameters<typeof safeAttrValue>[3]): string {
  // The library's own check first (decodes entities, strips control characters, refuses unknown schemes) ...
  const cleaned = safeAttrValue(tag, name, value, cssFilter);
  if (name === 'class') return /^language-[\w-]{1,40}$/.test(cleaned) ? cleaned : '';
  if (name !== 'href' && name !== 'src') return cleaned;
  // ... then a stricter allowlist of schemes: data: URLs are refused too.
  const url = cleaned.trim();
  return isSafeUrl(url) ? url : '';
}

const sanitizer = new FilterXSS({
  whiteList: ALLOWED,
  stripIgnoreTag: true,
  stripIgnoreTagBody: DROPPED_WITH_CONTENT,
  allowCommentTag: false,
  css: false,
  safeAttrValue: safeValue,
  // A refused URL or class drops the attribute altogether rather than leaving it empty.
  onTagAttr: (tag, name, value, isWhiteAttr) => (isWhiteAttr && safeValue(tag, name, value, undefined as never) === '' ? '' : undefined),
});

/** Sanitizes HTML with the content allowlist. */
function sanitizeHtml(html: string): string {
  return sanitizer.process(html);
}

/** Renders Markdown to HTML safe to insert into a storefront page. */
export function markdownToSafeHtml(markdown: string): string {
  return sanitizeHtml(marked.parse(markdown) as string).trim();
}
