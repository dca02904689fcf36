/** The front door of `orgs` (docs/architecture.md, "Walls"): what other domains may use. */
export { ANY_FRAME_ANCESTOR, isLoopbackHost, MAX_EMBED_ORIGINS } from './embed-origins.ts';
export { returnAddress, returnUrlProblem } from './return-url.ts';
export type { CreatedOrganization, Mode, OrgService } from './service.ts';
export { clientNames, organizationStatusOf } from './store.ts';
