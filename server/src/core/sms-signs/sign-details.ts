import type { SmsSignIdSide, SmsSignSource, SmsSignView, SmsUploadView } from '@herald/shared';
import type { SmsSignRow } from './sms-signs.repo.ts';

/**
 * The `details` JSON of a signature row: the third-party documents and the attachments. The
 * legal person's ID number is kept sealed (secret box, bound to the account); views show it
 * masked to the customer, whole to the reviewing operator.
 */
export interface SignDetails {
  licenseFileId: number | null;
  legalPersonName: string | null;
  legalPersonIdSealed: string | null;
  idSide: SmsSignIdSide;
  idFileId: number | null;
  attachmentIds: number[];
}

export function parseDetails(json: string): SignDetails {
  let raw: Partial<SignDetails> = {};
  try {
    raw = JSON.parse(json) as Partial<SignDetails>;
  } catch {
    // A row written before details existed, or by hand: shown without them.
  }
  return {
    licenseFileId: raw.licenseFileId ?? null,
    legalPersonName: raw.legalPersonName ?? null,
    legalPersonIdSealed: raw.legalPersonIdSealed ?? null,
    idSide: raw.idSide === 'back' ? 'back' : 'front',
    idFileId: raw.idFileId ?? null,
    attachmentIds: Array.isArray(raw.attachmentIds) ? raw.attachmentIds.map(Number) : [],
  };
}

export function fileIdsOf(details: SignDetails): number[] {
  return [details.licenseFileId, details.idFileId, ...details.attachmentIds].filter(
    (id): id is number => id !== null,
  );
}

/** The owner name uploads carry once this signature holds them. */
export const signOwner = (id: number) => `sms_sign:${id}`;

export const signSealContext = (accountId: number) => `sms_signs.legal_person_id:${accountId}`;

export function signView(
  row: SmsSignRow,
  files: Map<number, SmsUploadView>,
  idNumber: string | null,
): SmsSignView {
  const details = parseDetails(row.details);
  const file = (id: number | null) => (id === null ? null : (files.get(id) ?? null));
  return {
    id: row.id,
    name: row.name,
    signType: row.sign_type,
    source: row.source as SmsSignSource,
    thirdParty: row.third_party === 1,
    licenseFile: file(details.licenseFileId),
    legalPersonName: details.legalPersonName,
    legalPersonIdNumber: idNumber,
    idSide: details.idSide,
    idFile: file(details.idFileId),
    attachments: details.attachmentIds.map((id) => files.get(id)).filter((f): f is SmsUploadView => !!f),
    status: row.status === 'passed' || row.status === 'rejected' ? row.status : 'reviewing',
    rejectReason: row.reject_reason,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
