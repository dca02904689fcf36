import { Type } from 'typebox';
import { documented, errorResponses, type RoutesApp } from '../../core/schemas.ts';
import { allowAnyOrigin, preflightRoute } from './cors.ts';
import type { OAuthService } from './service.ts';

/** The host the OpenAPI document's examples use. */
const EXAMPLE_BASE = 'https://purser.example';

export const AuthorizationServerMetadata = Type.Object(
  {
    issuer: Type.String(),
    authorization_endpoint: Type.String(),
    token_endpoint: Type.String(),
    registration_endpoint: Type.Optional(Type.String()),
    revocation_endpoint: Type.String(),
    scopes_supported: Type.Array(Type.String()),
    response_types_supported: Type.Array(Type.String()),
    response_modes_supported: Type.Array(Type.String()),
    grant_types_supported: Type.Array(Type.String()),
    token_endpoint_auth_methods_supported: Type.Array(Type.String()),
    revocation_endpoint_auth_methods_supported: Type.Array(Type.String()),
    code_challenge_methods_supported: Type.Array(Type.String()),
    authorization_response_iss_parameter_supported: Type.Boolean(),
    client_id_metadata_document_supported: Type.Boolean(),
    service_documentation: Type.String(),
  },
  { $id: 'AuthorizationServerMetadata', description: 'RFC 8414 authorization server metadata.' },
);

export const ProtectedResourceMetadata = Type.Object(
  {
    resource: Type.String(),
    authorization_servers: Type.Array(Type.String()),
    scopes_supported: Type.Array(Type.String()),
    bearer_methods_supported: Type.Array(Type.String()),
    resource_name: Type.String(),
    resource_documentation: Type.String(),
  },
  {
    $id: 'ProtectedResourceMetadata',
    description: 'RFC 9728 protected resource metadata of the tool server.',
  },
);

/**
 * The metadata documents of the user-facing authorization server (RFC 8414) and of the tool server
 * it protects (RFC 9728), at each well-known path a client may look under. `prefix`: MCP_URL's path.
 */
export function metadataRoutes(
  app: RoutesApp,
  {
    oauth,
    mcpUrl,
    baseUrl,
    prefix,
    scopes,
  }: { oauth: OAuthService; mcpUrl: string; baseUrl: string; prefix: string; scopes: string[] },
): void {
  /** The RFC 8414 document of an issuer whose endpoints live under `base`. */
  const serverMetadata = (issuer: string, base: string, documentation: string, registration: boolean) => ({
    issuer,
    authorization_endpoint: `${base}/authorize`,
    token_endpoint: `${base}/token`,
    ...(registration ? { registration_endpoint: `${base}/register` } : {}),
    revocation_endpoint: `${base}/revoke`,
    scopes_supported: scopes,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
    revocation_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: registration,
    service_documentation: documentation,
  });
  const serverMetadataExample = serverMetadata(EXAMPLE_BASE, EXAMPLE_BASE, `${EXAMPLE_BASE}/docs`, true);
  // RFC 8414 §3.1: `{issuer}/.well-known/…` and, for an issuer with a path, the path-inserted form.
  const serverMetadataPaths = [`${prefix}/.well-known/oauth-authorization-server`];
  if (prefix) serverMetadataPaths.push(`/.well-known/oauth-authorization-server${prefix}`);
  for (const [index, url] of serverMetadataPaths.entries()) {
    app.get(
      url,
      {
        onRequest: allowAnyOrigin,
        schema: {
          hide: index > 0,
          operationId: 'getAuthorizationServerMetadata',
          security: [],
          summary: 'Authorization server metadata (RFC 8414)',
          tags: ['User-facing OAuth'],
          response: {
            200: documented(AuthorizationServerMetadata, 'The metadata document.', serverMetadataExample),
            ...errorResponses(400),
          },
        },
      },
      async (_request, reply) => {
        reply.header('cache-control', 'public, max-age=300');
        return serverMetadata(oauth.issuer, mcpUrl, `${baseUrl}/docs`, oauth.registrationEnabled);
      },
    );
    preflightRoute(app, url, 'GET');
  }

  const resourceMetadata = () => ({
    resource: oauth.resource,
    authorization_servers: [oauth.issuer],
    scopes_supported: scopes,
    bearer_methods_supported: ['header'],
    resource_name: 'Purser tools',
    resource_documentation: `${baseUrl}/docs`,
  });
  // RFC 9728 §3.1: inserted before the resource's path (`/mcp`), and at the bare well-known name.
  const resourcePaths = [
    `${prefix}/.well-known/oauth-protected-resource/mcp`,
    `${prefix}/.well-known/oauth-protected-resource`,
  ];
  if (prefix) resourcePaths.push(`/.well-known/oauth-protected-resource${prefix}/mcp`);
  for (const [index, url] of resourcePaths.entries()) {
    app.get(
      url,
      {
        onRequest: allowAnyOrigin,
        schema: {
          hide: index > 0,
          operationId: 'getProtectedResourceMetadata',
          security: [],
          summary: 'Protected resource metadata of the tool server (RFC 9728)',
          description: `Also served at ${prefix}/.well-known/oauth-protected-resource.`,
          tags: ['User-facing OAuth'],
          response: {
            200: documented(ProtectedResourceMetadata, 'The metadata document.', {
              resource: `${EXAMPLE_BASE}/mcp`,
              authorization_servers: [EXAMPLE_BASE],
              scopes_supported: scopes,
              bearer_methods_supported: ['header'],
              resource_name: 'Purser tools',
              resource_documentation: `${EXAMPLE_BASE}/docs`,
            }),
            ...errorResponses(400),
          },
        },
      },
      async (_request, reply) => {
        reply.header('cache-control', 'public, max-age=300');
        return resourceMetadata();
      },
    );
    preflightRoute(app, url, 'GET');
  }
}
