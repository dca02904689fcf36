/** The front door of `orgs` (docs/architecture.md, "Walls"): what other domains may use. */
export { ANY_FRAME_ANCESTOR, isLoopbackHost, MAX_EMBED_ORIGINS } from './embed-origins.ts';
export { returnAddress, returnUrlProblem } from './return-url.ts';
export type { CreatedOrganization, Mode, OrgService } from './service.ts';
export { clientNames, organizationStatusOf } from './store.ts';

/** Why organizations and their credentials refuse. Its routes give each its HTTP status. */
export type OrgRefusalCode = 'invalid_request' | 'not_found' | 'invalid_origin';
