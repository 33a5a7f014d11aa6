/** Renders Markdown to HTML safe to insert into a storefront page (src/lib/lazy-markdown.ts says what is kept). */
export async function renderMarkdown(markdown: string): Promise<string> {
  // Imported on the first render of an isolate, not at its startup (see src/lib/lazy-markdown.ts).
  const { markdownToSafeHtml } = await import('./lazy-markdown');
  return markdownToSafeHtml(markdown);
}
