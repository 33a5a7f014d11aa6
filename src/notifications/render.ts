/**
 * The template language: `{{name}}` (spaces inside the braces allowed) is replaced by the value of
 * the variable `name`; nothing else is special, nothing is evaluated. In an email's HTML part the
 * value is HTML-escaped; a missing or null value renders as nothing.
 */

const PLACEHOLDER = /\{\{\s*([A-Za-z][A-Za-z0-9_]*)\s*\}\}/g;

export type TemplateData = Record<string, unknown>;

/** The variable names a text uses, each once, in order of appearance. */
export function placeholders(text: string | null | undefined): string[] {
  if (!text) return [];
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
}

/** The names a text uses that are not in `known`. */
export function unknownPlaceholders(text: string | null | undefined, known: readonly string[]): string[] {
  return placeholders(text).filter((name) => !known.includes(name));
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]!);
}

function display(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Own properties only: `{{constructor}}` must not reach Object.prototype. */
const value = (data: TemplateData, name: string) => (Object.hasOwn(data, name) ? display(data[name]) : '');

export function renderText(template: string, data: TemplateData): string {
  return template.replace(PLACEHOLDER, (_match, name: string) => value(data, name));
}

export function renderHtml(template: string, data: TemplateData): string {
  return template.replace(PLACEHOLDER, (_match, name: string) => escapeHtml(value(data, name)));
}

export interface RenderedMessage {
  subject: string | null;
  body: string;
  bodyHtml: string | null;
}

export function renderMessage(template: { subject: string | null; body: string; bodyHtml: string | null }, data: TemplateData): RenderedMessage {
  return {
    subject: template.subject === null ? null : renderText(template.subject, data).replace(/\s+/g, ' ').trim(),
    // An empty last variable (an SMS's {{trackingUrl}}) must not leave a space at the end of what is sent.
    body: renderText(template.body, data).trim(),
    bodyHtml: template.bodyHtml === null ? null : renderHtml(template.bodyHtml, data),
  };
}
