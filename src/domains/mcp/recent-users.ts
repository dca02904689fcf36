import type { Clock } from '../../core/clock.ts';

/** Most users remembered at once; beyond it the oldest are forgotten first. */
const LIMIT = 10_000;

/** What `whoami` shows of a user. */
export interface UserContact {
  id: string;
  email: string | null;
  phone: string | null;
}

type Find = (organizationId: string, livemode: boolean, userId: string) => Promise<UserContact | undefined>;

/**
 * The users the tool server read in the last `ttlMs` (AUTH_CACHE_TTL_MS, as the token lookups it
 * answers with: 0 turns it off). Reading the user was most of a `whoami` call's own cost (bench/mcp).
 * No write of Purser's changes a user row (they are only inserted), so nothing in this process has
 * to clear it; a change made outside it (by hand, in the database) is seen within the TTL, as a
 * revocation by another process is. A user not found is never remembered.
 */
export class RecentUsers {
  private readonly recent = new Map<string, { user: UserContact; until: number }>();

  constructor(
    private readonly find: Find,
    private readonly clock: Clock,
    private readonly ttlMs: number,
  ) {}

  async get(organizationId: string, livemode: boolean, userId: string): Promise<UserContact | undefined> {
    if (this.ttlMs === 0) return this.find(organizationId, livemode, userId);
    const key = `${organizationId}\n${livemode ? 1 : 0}\n${userId}`;
    const now = this.clock.now();
    const cached = this.recent.get(key);
    if (cached && cached.until > now) return cached.user;
    const found = await this.find(organizationId, livemode, userId);
    if (!found) {
      this.recent.delete(key);
      return undefined;
    }
    const user = { id: found.id, email: found.email, phone: found.phone };
    this.recent.delete(key);
    if (this.recent.size >= LIMIT) this.recent.delete(this.recent.keys().next().value as string);
    this.recent.set(key, { user, until: now + this.ttlMs });
    return user;
  }
}
