/** The front door of `orgs` (docs/architecture.md, "Walls"): what other domains may use. */
export { isLoopbackHost } from './embed-origins.ts';
export { returnAddress, returnUrlProblem } from './return-url.ts';
export type { CreatedOrganization, OrgService } from './service.ts';
export { clientNames } from './store.ts';
