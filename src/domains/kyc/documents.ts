import { invalid, Refusal } from '../../core/refusal.ts';
import { isLivemode } from '../../core/tenant.ts';
import type { Principal } from '../auth/index.ts';
import { documentIdentity } from './digests.ts';
import { backMismatches } from './document-match.ts';
import { type InformationField, requiredProfile } from './fields.ts';
import type { KycRefusalCode } from './index.ts';
import type { DocumentType, Extracted, ReadDocumentInput, ReadResult } from './reader/index.ts';
import { base64Bytes } from './reader/upload.ts';
import { allows, type KycCondition, type KycMove } from './states.ts';
import type { KycVerification, KycVerificationChanges } from './store.ts';
import * as store from './store.ts';
import {
  DOCUMENT_RESET,
  invalidState,
  type KycStateObject,
  TEXT,
  type Verifications,
} from './verifications.ts';

/** The document step: the front and back (or a passport's data page) read, checked and accepted. */

export interface DocumentUpload {
  user_id: string;
  /** Base64 text, or the bytes when the upload was read off the API's thread (upload-body.ts). */
  image: string | Buffer;
  mime_type?: 'image/jpeg' | 'image/png';
  document_type: DocumentType;
  issuing_country: string;
}

const ADULT_AGE = 18;

const documentMismatch = (fieldErrors: Record<string, string>, warnings: string[] = []) =>
  new Refusal<KycRefusalCode>(
    'document_mismatch',
    'The back does not belong to the same document as the front. Upload the back of that document, or start again with a new front.',
    { fieldErrors, warnings },
  );

function ageAt(dateOfBirth: string, now: number): number {
  const today = new Date(now).toISOString().slice(0, 10);
  const years = Number(today.slice(0, 4)) - Number(dateOfBirth.slice(0, 4));
  return today.slice(5) >= dateOfBirth.slice(5) ? years : years - 1;
}

export class KycDocuments {
  constructor(private readonly v: Verifications) {}

  /** POST /api/v2/kyc/documents/{front,back}. */
  async uploadDocument(
    principal: Principal,
    side: 'front' | 'back',
    input: DocumentUpload,
  ): Promise<KycStateObject> {
    const row = await this.v.of(principal, input.user_id);
    const passport = input.document_type === 'passport';
    const move: KycMove =
      side === 'back' ? 'back_accepted' : passport ? 'passport_page_accepted' : 'front_accepted';
    // A back is checked against the front the verification holds: the front decides the document.
    const front =
      side === 'back' && allows(row.status, move) && row.front_at !== null
        ? (this.v.open<Partial<Extracted>>(row, 'front_extracted') ?? {})
        : null;
    if (side === 'back' && front === null && passport) {
      const message = 'A passport has one data page: upload it as the front.';
      throw invalid(message, { document_type: message });
    }
    if (!allows(row.status, move)) throw invalidState(row.status, 'it does not take documents now.');
    if (side === 'back') {
      if (front === null) throw invalidState(row.status, 'upload the front of the document first.');
      const declared = backMismatches(
        { document_type: row.document_type ?? undefined, issuing_country: row.issuing_country ?? undefined },
        { document_type: input.document_type, issuing_country: input.issuing_country },
      );
      if (Object.keys(declared).length > 0) throw documentMismatch(declared);
    }

    const image = decodeBase64Image(input.image);
    const read = await this.read({
      side,
      image,
      mimeType: input.mime_type ?? 'image/jpeg',
      documentType: input.document_type,
      issuingCountry: input.issuing_country,
      now: new Date(this.v.clock.now()),
      limits: this.v.config.kyc.documentLimits,
    });
    if (!read.ok) {
      if (read.code === 'unsupported_image')
        throw invalid(read.reason, { image: 'must be a JPEG or PNG image' });
      throw new Refusal<KycRefusalCode>(read.code, read.reason, { warnings: read.warnings });
    }
    // The sandbox's sample documents describe nobody: a live verification cannot rest on one.
    if (read.details.specimen && isLivemode(row.livemode))
      throw new Refusal<KycRefusalCode>('specimen_document', TEXT.specimen, { warnings: read.warnings });
    const extracted = read.extracted;
    if (front) {
      const mismatches = backMismatches(front, extracted);
      if (Object.keys(mismatches).length > 0) throw documentMismatch(mismatches, read.warnings);
    }
    const identity = extracted.document_number
      ? documentIdentity({
          issuingCountry: extracted.issuing_country ?? input.issuing_country,
          documentType: input.document_type,
          documentNumber: extracted.document_number,
        })
      : null;
    const documentKey = identity ? this.v.digests.current('document', identity) : null;
    if (identity) {
      const holder = await store.findApprovedDocumentHolder(this.v.db, {
        organizationId: row.organization_id,
        livemode: row.livemode,
        candidates: this.v.digests.candidates('document', identity),
        exceptUserId: row.user_id,
      });
      if (holder)
        throw new Refusal<KycRefusalCode>(
          'user_conflict',
          'This document is already verified for another user of this platform.',
          { warnings: read.warnings },
        );
    }

    const now = this.v.clock.now();
    let updated: KycVerification;
    if (move === 'front_accepted') {
      updated = await this.v.transition(row, move, 'accepted', {
        actor: 'api',
        changes: {
          ...DOCUMENT_RESET,
          document_type: input.document_type,
          issuing_country: input.issuing_country,
          front_extracted: this.v.seal(row.id, 'front_extracted', extracted),
          front_at: now,
        },
      });
    } else {
      const documentChanges: KycVerificationChanges =
        move === 'passport_page_accepted'
          ? {
              ...DOCUMENT_RESET,
              document_type: input.document_type,
              issuing_country: input.issuing_country,
              front_extracted: this.v.seal(row.id, 'front_extracted', extracted),
              front_at: now,
              document_key: documentKey?.digest ?? null,
              document_key_key_id: documentKey?.keyId ?? null,
            }
          : {
              back_extracted: this.v.seal(row.id, 'back_extracted', extracted),
              back_at: now,
              document_key: documentKey?.digest ?? null,
              document_key_key_id: documentKey?.keyId ?? null,
            };
      // The back agrees with the front (checked above) and adds what only it carries (the address).
      const merged = { ...(front ?? {}), ...extracted };
      const branch = this.branch(
        merged,
        front?.issuing_country ?? extracted.issuing_country ?? input.issuing_country,
      );
      updated = await this.v.transition(row, move, branch.when, {
        actor: 'api',
        changes: documentChanges,
        reason: branch.reason,
        requiredFields: branch.missing,
      });
    }
    return { ...(await this.v.present(updated)), warnings: read.warnings, extracted };
  }

  private async read(input: ReadDocumentInput): Promise<ReadResult> {
    try {
      return await this.v.deps.reader.read(input);
    } catch (cause) {
      throw new Refusal<KycRefusalCode>(
        'verification_error',
        'The document could not be checked right now. Try again.',
        { cause },
      );
    }
  }

  /** The branch point: what is still missing, or why the document cannot be accepted. */
  private branch(
    merged: Partial<Extracted>,
    documentCountry: string,
  ): { when: KycCondition; missing?: InformationField[]; reason?: string } {
    if (merged.date_of_birth && ageAt(merged.date_of_birth, this.v.clock.now()) < ADULT_AGE)
      return { when: 'not_verifiable', reason: TEXT.underage };
    // The document's country (the front's) decides the profile, e.g. the SSN for a US document.
    const missing = requiredProfile(documentCountry).filter(
      (f) => merged[f as keyof Extracted] === undefined,
    );
    if (missing.length > 0) return { when: 'fields_missing', missing, reason: TEXT.needsInformation };
    return { when: 'complete' };
  }
}

/**
 * A photo's bytes: its base64 text decoded (standard or URL-safe, an optional `data:` prefix and line
 * breaks allowed), or the bytes themselves when the upload was read off the API's thread.
 */
export function decodeBase64Image(value: string | Buffer): Buffer {
  if (typeof value !== 'string') return value;
  const bytes = base64Bytes(value);
  if (!bytes)
    throw invalid('The image must be base64-encoded.', {
      image: 'must be base64-encoded image bytes',
    });
  return bytes;
}
