import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { derivePrivateKey } from '../../src/domains/funding/chain/keys.ts';
import { centsFromUnits, unitsFromCents, unitsPerCent } from '../../src/domains/funding/chain/units.ts';
import { loadFundingConfig } from '../../src/domains/funding/config.ts';

/* The EVM rail's pure parts: cents and token units, key derivation, its settings. */

describe('cents and token units', () => {
  it('are exact at 6 decimals: a cent is 10^4 units', () => {
    expect(unitsPerCent(6)).toBe(10_000n);
    expect(unitsFromCents(5000, 6)).toBe(50_000_000n);
    expect(unitsFromCents(0, 6)).toBe(0n);
    expect(unitsFromCents(Number.MAX_SAFE_INTEGER, 6)).toBe(90_071_992_547_409_910_000n);
    expect(unitsFromCents(1, 18)).toBe(10n ** 16n);
    expect(() => unitsFromCents(1.5, 6)).toThrow();
    expect(() => unitsFromCents(-1, 6)).toThrow();
  });

  it('credit whole cents, rounded down, never more than arrived', () => {
    expect(centsFromUnits(12_345_678n, 6)).toEqual({ cents: 1234n, remainder: 5678n });
    expect(centsFromUnits(9_999n, 6)).toEqual({ cents: 0n, remainder: 9_999n });
    expect(centsFromUnits(10_000n, 6)).toEqual({ cents: 1n, remainder: 0n });
    // uint256's largest value: no float anywhere.
    const max = 2n ** 256n - 1n;
    const { cents, remainder } = centsFromUnits(max, 6);
    expect(cents * 10_000n + remainder).toBe(max);
    for (const units of [0n, 1n, 9_999n, 10_001n, 123_456_789_012n]) {
      const { cents: c, remainder: r } = centsFromUnits(units, 6);
      expect(c * 10_000n + r).toBe(units);
      expect(r < 10_000n && r >= 0n).toBe(true);
      expect(unitsFromCents(Number(c), 6) <= units).toBe(true);
    }
  });
});

describe('key derivation', () => {
  const secret = `0x${'11'.repeat(32)}` as const;
  const address = (owner: Parameters<typeof derivePrivateKey>[1], key: `0x${string}` = secret) =>
    privateKeyToAccount(derivePrivateKey(key, owner)).address;

  it('is deterministic and separates organizations, modes, users and secrets', () => {
    const pool = { kind: 'pool', organizationId: 'org_a', livemode: true } as const;
    expect(address(pool)).toBe(address(pool));
    const others = [
      address({ ...pool, organizationId: 'org_b' }),
      address({ ...pool, livemode: false }),
      address({ kind: 'user', organizationId: 'org_a', livemode: true, userId: 'usr_1' }),
      address({ kind: 'user', organizationId: 'org_a', livemode: true, userId: 'usr_2' }),
      address(pool, `0x${'22'.repeat(32)}`),
    ];
    expect(new Set([address(pool), ...others]).size).toBe(6);
  });
});

describe('CHAIN settings', () => {
  const evm = {
    CHAIN: 'evm',
    CHAIN_RPC_URL: 'https://rpc.example.test/v1/secret-api-key',
    CHAIN_ID: '8453',
    STABLECOIN_ADDRESS: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    CHAIN_POOL_KEY: `0x${'ab'.repeat(32)}`,
  };

  it('default to offline, and read the EVM rail with its defaults', () => {
    expect(loadFundingConfig({})).toMatchObject({ chain: 'offline', evm: null });
    expect(loadFundingConfig(evm).evm).toEqual({
      rpcUrl: evm.CHAIN_RPC_URL,
      chainId: 8453,
      stablecoinAddress: evm.STABLECOIN_ADDRESS.toLowerCase(),
      decimals: 6,
      confirmations: 1,
      poolKey: evm.CHAIN_POOL_KEY,
      previousPoolKey: null,
      transferTimeoutMs: 1_800_000,
      startBlock: null,
      logRange: 1000,
    });
  });

  it('refuse what is missing or malformed, never repeating the key', () => {
    expect(() => loadFundingConfig({ CHAIN: 'solana' })).toThrow(/CHAIN must be offline or evm/);
    for (const name of ['CHAIN_RPC_URL', 'CHAIN_ID', 'STABLECOIN_ADDRESS', 'CHAIN_POOL_KEY'] as const) {
      expect(() => loadFundingConfig({ ...evm, [name]: '' })).toThrow(new RegExp(`${name} is required`));
    }
    expect(() => loadFundingConfig({ ...evm, CHAIN_RPC_URL: 'ftp://x' })).toThrow(/CHAIN_RPC_URL/);
    expect(() => loadFundingConfig({ ...evm, STABLECOIN_ADDRESS: '0x12' })).toThrow(/STABLECOIN_ADDRESS/);
    expect(() => loadFundingConfig({ ...evm, CHAIN_CONFIRMATIONS: '0' })).toThrow(/CHAIN_CONFIRMATIONS/);
    const badKey = `0x${'ab'.repeat(31)}`;
    expect(() => loadFundingConfig({ ...evm, CHAIN_POOL_KEY: badKey })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('abab') }),
    );
    expect(() => loadFundingConfig({ ...evm, CHAIN_PREVIOUS_POOL_KEY: badKey })).toThrow(
      expect.objectContaining({ message: expect.stringMatching(/^CHAIN_PREVIOUS_POOL_KEY(?!.*abab)/) }),
    );
    expect(
      loadFundingConfig({ ...evm, CHAIN_PREVIOUS_POOL_KEY: `0x${'CD'.repeat(32)}` }).evm?.previousPoolKey,
    ).toBe(`0x${'cd'.repeat(32)}`);
  });
});
