/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

/**
 * The headers every hosted page sends (KYC, wallet, vault): a CSP that allows nothing but what
 * `directives` add (nonce-bound styles and scripts, images), forms back to Purser, and framing by
 * `frameAncestors`; and, as its link is a credential, never a Referer, a cache or an index.
 * `permissions` is the page's Permissions-Policy (the camera for a face scan, nothing for a wallet).
 */
export function hostedPageHeaders(
  reply: { header(name: string, value: string): unknown; type(value: string): unknown },
  page: {
    directives: string[];
    frameAncestors: string;
    permissions: string;
    /** Origins a form's answer may redirect to besides Purser (CSP `form-action` covers redirects). */
    formRedirects?: string[];
  },
): void {
  const csp = [
    "default-src 'none'",
    ...page.directives,
    ["form-action 'self'", ...(page.formRedirects ?? [])].join(' '),
    "base-uri 'none'",
    page.frameAncestors,
  ];
  reply.header('content-security-policy', csp.join('; '));
  reply.header('referrer-policy', 'no-referrer');
  reply.header('cache-control', 'no-store');
  reply.header('x-content-type-options', 'nosniff');
  reply.header('x-robots-tag', 'noindex, nofollow');
  reply.header('permissions-policy', page.permissions);
  reply.type('text/html; charset=utf-8');
}

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
