import {
  type MmsPage,
  mmsBytes,
  previewSmsTemplate,
  type SmsTemplateReviewView,
  type SmsTemplateStatus,
  type SmsTemplateView,
} from '@herald/shared';
import type { SmsTemplateReviewRow, SmsTemplateRow } from './sms-templates.repo.ts';

/** Row → what the console shows. Lists leave out the MMS pages (their media), keeping the size. */
export function toView(row: SmsTemplateRow, withPages: boolean): SmsTemplateView {
  const pages = row.kind === 'mms' ? parsePages(row.pages) : null;
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    region: row.region,
    smsType: row.sms_type,
    content: row.content,
    variables: parseVariables(row.variables),
    pages: withPages ? pages : null,
    mms: pages ? { pageCount: pages.length, bytes: mmsBytes(row.content, pages) } : null,
    signId: row.sign_id,
    signName: row.sign_name,
    signStatus: row.sign_status as SmsTemplateView['signStatus'],
    trackLinks: row.track_links === 1,
    status: row.status as SmsTemplateStatus,
    rejectReason: row.reject_reason,
    lastSentAt: row.last_sent_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toReviewView(row: SmsTemplateReviewRow): SmsTemplateReviewView {
  const view = toView(row, true);
  return {
    ...view,
    accountId: row.account_id,
    accountName: row.account_name,
    preview: previewSmsTemplate(view),
  };
}

export function parseVariables(text: string): Record<string, string> {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed as Record<string, unknown>).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string',
      ),
    );
  } catch {
    return {};
  }
}

export function parsePages(text: string | null): MmsPage[] {
  if (!text) return [];
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? (parsed as MmsPage[]) : [];
  } catch {
    return [];
  }
}
