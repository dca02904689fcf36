import type { components } from './schema.d.ts';
import { readError } from './unwrap.ts';

type TokenResponse = components['schemas']['TokenResponse'];

/** A token is renewed this long before the service would refuse it: clocks and requests take time. */
const EXPIRY_MARGIN_MS = 60_000;

/**
 * The platform token of one client (spec §5.1: the client-credentials grant, no refresh token; mint
 * a new one when it expires). Callers at the same moment share one mint.
 */
export class PlatformTokens {
  private current: { token: string; expiresAt: number } | null = null;
  private minting: Promise<string> | null = null;

  constructor(
    private readonly mint: () => Promise<Response>,
    private readonly now: () => number,
  ) {}

  async get(): Promise<string> {
    if (this.current && this.now() < this.current.expiresAt) return this.current.token;
    this.minting ??= this.fetchToken().finally(() => {
      this.minting = null;
    });
    return this.minting;
  }

  /** The service refused `token` (401): the next `get` mints anew, unless another call already did. */
  invalidate(token: string): void {
    if (this.current?.token === token) this.current = null;
  }

  private async fetchToken(): Promise<string> {
    const response = await this.mint();
    if (!response.ok) throw await readError(response);
    const body = (await response.json()) as TokenResponse;
    this.current = {
      token: body.access_token,
      expiresAt: this.now() + body.expires_in * 1000 - EXPIRY_MARGIN_MS,
    };
    return body.access_token;
  }
}
