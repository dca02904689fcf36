/** The front door of `members` (docs/architecture.md, "Walls"): what other domains may use. */
export type { MemberService, SignedInMember } from './service.ts';
export { MEMBER_COOKIE, MEMBER_ROLES, memberCookie } from './service.ts';
