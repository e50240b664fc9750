import type { SmsFilingStatus, SmsFilingView, SmsUploadView } from '@herald/shared';
import type { SmsFilingRow } from './sms-filings.repo.ts';

export const filingOwner = (id: number) => `sms_filing:${id}`;
export const filingSealContext = (accountId: number) => `sms_filings.handler_id_number:${accountId}`;

/** The commitment book's upload id (the column keeps it as text). */
export const commitmentFileId = (row: SmsFilingRow): number | null => {
  const id = Number(row.commitment_file);
  return Number.isInteger(id) && id > 0 ? id : null;
};

export function filingView(
  row: SmsFilingRow,
  files: Map<number, SmsUploadView>,
  idNumber: string,
): SmsFilingView {
  const fileId = commitmentFileId(row);
  return {
    id: row.id,
    handlerName: row.handler_name,
    handlerIdNumber: idNumber,
    commitmentFile: fileId === null ? null : (files.get(fileId) ?? null),
    status: (row.status === 'unsubmitted' ? 'reviewing' : row.status) as SmsFilingStatus,
    rejectReason: row.reject_reason,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
