/**
 * Public types of the KYC document reader. See docs/kyc-reader.md.
 */

import type { ImageLimits } from './header.ts';

export type { ImageLimits } from './header.ts';

export type DocumentSide = 'front' | 'back';
export type DocumentType = 'drivers_license' | 'state_id' | 'passport';
export type SupportedMimeType = 'image/jpeg' | 'image/png';

export interface ReadDocumentInput {
  side: DocumentSide;
  /** The raw image file bytes as uploaded (already base64-decoded). */
  image: Buffer;
  /** The declared type; anything other than JPEG or PNG is refused as `unsupported_image`. */
  mimeType: SupportedMimeType | string;
  documentType: DocumentType;
  /** ISO 3166-1 alpha-2 (preferred) or alpha-3 code of the issuing country, e.g. 'US', 'CA', 'GB'. */
  issuingCountry: string;
  /** The clock used for the expiry and age checks. */
  now: Date;
  /** Refused as `image_too_large` from the header, before decoding; default `DOCUMENT_LIMITS`. */
  limits?: ImageLimits;
}

/** The keys of the spec's `extracted` object; they match the information-submission fields. */
export interface Extracted {
  first_name: string;
  last_name: string;
  /** YYYY-MM-DD */
  date_of_birth: string;
  address_line1: string;
  address_city: string;
  address_region: string;
  address_postal_code: string;
  /** ISO 3166-1 alpha-2 */
  address_country: string;
  document_type: DocumentType;
  /** ISO 3166-1 alpha-2 when known, otherwise the code given by the caller, upper-cased. */
  issuing_country: string;
  /**
   * The document's own number (licence number, passport number). It is NOT a national id number
   * (SSN, SIN, ...) and must never be used to prefill `national_id_number`.
   */
  document_number: string;
}

/** Internal details that are not part of the public `extracted` contract. */
export interface ReaderDetails {
  /** YYYY-MM-DD (from the barcode or MRZ; on a front, as printed and not acted upon). */
  expiry_date?: string;
  /** ISO 3166-1 alpha-2 nationality from an MRZ. */
  nationality?: string;
  /** Which reading produced the data. */
  source: 'barcode' | 'mrz' | 'front_text' | 'none';
  /** AAMVA version of a decoded licence barcode. */
  aamva_version?: number;
  /** MRZ format of a decoded MRZ (TD1, TD2, TD3). */
  mrz_format?: string;
  /** The document is a published specimen (the sandbox sample set, ICAO's Utopia): see specimens.ts. */
  specimen?: boolean;
  quality: QualityMetrics;
}

export interface QualityMetrics {
  width: number;
  height: number;
  /** Variance of the Laplacian of a grayscale downscale (higher is sharper). */
  sharpness: number;
  /** Mean luminance 0..255. */
  meanLuminance: number;
  /** Share of pixels at or below 8 (0..1). */
  darkClippedShare: number;
  /** Share of pixels at or above 247 (0..1). */
  brightClippedShare: number;
  /** Standard deviation of the luminance. */
  contrast: number;
}

export type ReadFailureCode =
  | 'document_unreadable'
  | 'document_expired'
  | 'unsupported_image'
  | 'image_too_large';

export interface ReadSuccess {
  ok: true;
  /** User-safe feedback on photo quality and on what could not be read. */
  warnings: string[];
  /** What was read; keys appear only when they were read. */
  extracted: Partial<Extracted>;
  /** The document's expiry date lies before `now` (always false on success: expired documents fail). */
  expired: boolean;
  /** The holder is under 18 at `now`; the caller decides to reject. */
  underage: boolean;
  /** YYYY-MM-DD, when a date of birth was read. */
  holderDateOfBirth?: string;
  details: ReaderDetails;
}

export interface ReadFailure {
  ok: false;
  code: ReadFailureCode;
  /** End-user-safe text that may be shown verbatim. */
  reason: string;
  warnings: string[];
}

export type ReadResult = ReadSuccess | ReadFailure;
