/** HTML text, the document and the headers of a hosted page: what pages (web/) and the domains' own pages and mails share. */
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
 * What every hosted page shares: type, a phone-width column, white sections, buttons, and the
 * notice/problem/hint lines. A page's own `style` comes after it, so it adds to or overrides these.
 */
const BASE_STYLE = `
body{font:16px/1.5 system-ui,-apple-system,sans-serif;margin:0;padding:1rem;color:#1b1f24;background:#f5f7fa}
main{max-width:30rem;margin:0 auto}
h1{font-size:1.4rem;margin:.2rem 0 1rem}
section{background:#fff;border:1px solid #d7dce2;border-radius:10px;margin:0 0 1rem;padding:.9rem 1rem}
button{font:inherit;padding:.6rem 1.2rem;border-radius:6px;border:0;background:#1f4fd1;color:#fff;cursor:pointer;margin-top:.9rem}
button.secondary{background:#e4e8ee;color:#1b1f24}
.hint{color:#56606b;font-size:.9rem}
.notice{background:#e5f4ea;color:#14532d;padding:.6rem .8rem;border-radius:6px;margin:0 0 1rem}
.problem{background:#fdecea;color:#7a1c13;padding:.6rem .8rem;border-radius:6px;margin:0 0 1rem}
`;

/**
 * A hosted page's whole document: a phone-sized viewport, kept out of search indexes, and its one
 * stylesheet (the shared base, then the page's own) inline under this response's CSP nonce. `body`
 * is the markup of `<body>`; `tail` goes last in it (a page's scripts, which look for the page's
 * elements).
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
<title>${escapeHtml(page.title)}</title><style nonce="${page.nonce}">${BASE_STYLE}${page.style}</style></head>
<body>${page.body}${page.tail ?? ''}</body></html>`;
}

/** A page's notice (what was done) and problem (what went wrong), each only when there is one. */
export function feedbackLines(feedback: {
  notice?: string | undefined;
  problem?: string | undefined;
}): string {
  return `${feedback.notice ? `<p class="notice" role="status">${escapeHtml(feedback.notice)}</p>` : ''}${feedback.problem ? `<p class="problem" role="alert">${escapeHtml(feedback.problem)}</p>` : ''}`;
}
