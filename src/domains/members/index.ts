/** The front door of `members` (docs/architecture.md, "Walls"): what other domains may use. */
export type { MemberService, SignedInMember } from './service.ts';
