import { escapeHtml } from '../core/html.ts';

export { escapeHtml, feedbackLines, hostedPageHeaders, htmlDocument } from '../core/html.ts';

/**
 * A reference page for developers (the error catalog, the sandbox's test documents): text in a wide
 * column, no scripts. `style` adds the page's own rules after the shared ones.
 */
export function referenceDocument(page: { title: string; body: string; style?: string }): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(page.title)}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}${page.style ?? ''}</style>
</head><body><h1>${escapeHtml(page.title)}</h1>${page.body}</body></html>`;
}
