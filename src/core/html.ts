/** HTML text and the headers of a hosted page: what pages (web/) and the domains' own pages and mails share. */
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
