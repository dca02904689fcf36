import { documentIdentity } from './digests.ts';
import * as store from './store.ts';
import type { Verifications } from './verifications.ts';

/**
 * A sealed national id number that has not reached the reviewer this long after it was submitted is
 * erased (the verification was abandoned, or the reviewer stayed out of reach): docs/kyc.md.
 */
export const NATIONAL_ID_RETENTION_MS = 24 * 60 * 60 * 1000;

/** Retention of the personal data kept: what is erased when, and what is keyed again. */
export class KycRetention {
  constructor(private readonly v: Verifications) {}

  /**
   * Worker chore for the personal data kept: erases the sealed national id numbers whose moment has
   * passed while nothing ran (see `store.eraseOverdueNationalIds`), and derives again, under the
   * current key, the document keys computed under a previous key or erased as unkeyed (`legacy`),
   * from the sealed reads of the document. One batch of `limit` rows each time.
   */
  async sweepPersonalData(limit = 100): Promise<{ nationalIdsErased: number; documentKeysRekeyed: number }> {
    const nationalIdsErased = await store.eraseOverdueNationalIds(this.v.db, {
      sealedBefore: this.v.clock.now() - NATIONAL_ID_RETENTION_MS,
    });
    const stale = await store.listDocumentKeysToRekey(this.v.db, {
      currentKeyId: this.v.digests.currentKeyId,
      limit,
    });
    for (const row of stale) {
      let key: { digest: string | null; keyId: string | null } = { digest: null, keyId: null };
      try {
        const merged = this.v.extractedOf(row);
        if (merged.document_number && row.document_type && row.issuing_country) {
          const identity = documentIdentity({
            issuingCountry: merged.issuing_country ?? row.issuing_country,
            documentType: row.document_type,
            documentNumber: merged.document_number,
          });
          key = this.v.digests.current('document', identity);
        }
      } catch {
        // Reads sealed under a key no longer in the ring cannot be opened: nothing left to match on.
      }
      await store.setDocumentKey(this.v.db, row.id, key);
    }
    return { nationalIdsErased, documentKeysRekeyed: stale.length };
  }
}
