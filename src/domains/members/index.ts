/** The front door of `members` (docs/architecture.md, "Walls"): what other domains may use. */
export type { MemberService, SignedInMember } from './service.ts';
export { MEMBER_COOKIE, MEMBER_ROLES, memberCookie } from './service.ts';

/**
 * Why members refuse. Every code is a common one (core/refusal.ts), whose status is the same
 * everywhere, so members (which have no routes of their own: the console and the platform-connect
 * page serve them) need no table.
 */
export type MemberRefusalCode = 'invalid_request' | 'not_found' | 'rate_limited';
