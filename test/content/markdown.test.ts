import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/lib/markdown';
import { isSafeUrl } from '../../src/lib/safe-url';

// Known XSS vectors (OWASP filter evasion cheat sheet and friends), written as an editor could in
// Markdown or as raw HTML inside it. Whatever survives must carry no script.
const VECTORS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=https://evil.test/x.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<img src="javascript:alert(1)">',
  '<IMG SRC=JaVaScRiPt:alert(1)>',
  '<img src=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)>',
  '<a href="jav&#x09;ascript:alert(1)">x</a>',
  '<a href=" javascript:alert(1)">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '[click](javascript:alert(1))',
  '[click](JAVASCRIPT:alert(1))',
  '[click](javascript&#58;alert(1))',
  '![x](javascript:alert(1))',
  '![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
  '[x](<javascript:alert(1)>)',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<iframe src="https://evil.test"></iframe>',
  '<body onload=alert(1)>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<a href="https://ok.test" onclick="alert(1)" onmouseover=alert(1)>ok</a>',
  '<p onclick="alert(1)">para</p>',
  '<details open ontoggle=alert(1)>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<form action="javascript:alert(1)"><input type=submit></form>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<link rel=stylesheet href="javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<!--<img src=x onerror=alert(1)>-->',
  '<<script>script>alert(1)<</script>/script>',
  '<scr<script>ipt>alert(1)</script>',
  '<a href="&#14;javascript:alert(1)">x</a>',
  '`<script>alert(1)</script>` and\n\n```html\n<script>alert(1)</script>\n```',
  '<textarea><script>alert(1)</script></textarea>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
];

describe('renderMarkdown', () => {
  it('renders Markdown: headings, emphasis, lists, links, images, code, tables', async () => {
    const html = await renderMarkdown(
      '# Shipping\n\nWe ship **fast** and _free_.\n\n- one\n- two\n\n[Contact](https://shop.test/contact "Us") or [FAQ](/pages/faq) or [mail](mailto:a@b.test)\n\n![Van](https://cdn.test/van.png)\n\n```js\nconst a = 1 < 2;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |',
    );
    expect(html).toContain('<h1>Shipping</h1>');
    expect(html).toContain('<strong>fast</strong>');
    expect(html).toContain('<em>free</em>');
    expect(html).toContain('<li>one</li>');
    expect(html).toContain('<a href="https://shop.test/contact" title="Us">Contact</a>');
    expect(html).toContain('<a href="/pages/faq">FAQ</a>');
    expect(html).toContain('<a href="mailto:a@b.test">mail</a>');
    expect(html).toContain('<img src="https://cdn.test/van.png" alt="Van">');
    expect(html).toContain('<code class="language-js">const a = 1 &lt; 2;');
    expect(html).toContain('<td>1</td>');
  });

  it.each(VECTORS)('leaves no script in %s', async (vector) => {
    const html = await renderMarkdown(vector);
    expect(html).not.toMatch(/<script|<iframe|<svg|<object|<embed|<meta|<link|<base|<form|<style|<body|<details|<math/i);
    expect(html).not.toMatch(/\son\w+\s*=/i);
    expect(html).not.toMatch(/(href|src)\s*=\s*["']?\s*(javascript|vbscript|data):/i);
    expect(html).not.toMatch(/style\s*=/i);
    expect(html).not.toMatch(/<!--/);
  });

  it('keeps harmless raw HTML and the text of dropped tags', async () => {
    expect(await renderMarkdown('Line<br>break <span class="x">kept text</span> <sup>2</sup>')).toBe('<p>Line<br>break kept text <sup>2</sup></p>');
    expect(await renderMarkdown('<a href="https://ok.test" onclick="alert(1)">ok</a>')).toBe('<p><a href="https://ok.test">ok</a></p>');
    expect(await renderMarkdown('[bad](javascript:alert(1))')).toBe('<p><a>bad</a></p>');
  });

  it('accepts only http(s), mailto:, tel: and scheme-less URLs', () => {
    for (const url of ['https://a.test/x', 'http://a.test', 'mailto:x@y.test', 'tel:+4930123', '/pages/faq', '#top', '?q=1', 'faq', '../x', 'a/b:c']) {
      expect(isSafeUrl(url), url).toBe(true);
    }
    for (const url of ['javascript:alert(1)', 'JavaScript:x', 'data:text/html,x', 'vbscript:x', 'file:///etc/passwd', 'ftp://x']) {
      expect(isSafeUrl(url), url).toBe(false);
    }
  });
});
