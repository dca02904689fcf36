import { escapeHtml } from '../core/html.ts';

export { escapeHtml, hostedPageHeaders } from '../core/html.ts';

/**
 * A hosted page's whole document: a phone-sized viewport, kept out of search indexes, and its one
 * stylesheet inline under this response's CSP nonce. `body` is the markup of `<body>`; `tail` goes
 * last in it (a page's scripts, which look for the page's elements).
 */
export function htmlDocument(page: {
  nonce: string;
  title: string;
  style: string;
  body: string;
  tail?: string;
}): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(page.title)}</title><style nonce="${page.nonce}">${page.style}</style></head>
<body>${page.body}${page.tail ?? ''}</body></html>`;
}

/** A page's notice (what was done) and problem (what went wrong), each only when there is one. */
export function feedbackLines(feedback: {
  notice?: string | undefined;
  problem?: string | undefined;
}): string {
  return `${feedback.notice ? `<p class="notice" role="status">${escapeHtml(feedback.notice)}</p>` : ''}${feedback.problem ? `<p class="problem" role="alert">${escapeHtml(feedback.problem)}</p>` : ''}`;
}
