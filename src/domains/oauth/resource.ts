/**
 * RFC 8707 resource indicators. The only protected resource is the tool server, `{mcp_url}/mcp`. A
 * request's `resource` must name it exactly; the one tolerance is a single trailing slash
 * (`{mcp_url}/mcp/`), because clients derive the resource from the URL they were given and some
 * normalise it with one (documented in docs/oauth-mcp.md). RFC 8707 §2: no fragment.
 */
export function resourceMatches(requested: string | undefined, resource: string): boolean {
  if (requested === undefined) return false;
  return requested === resource || requested === `${resource}/`;
}
