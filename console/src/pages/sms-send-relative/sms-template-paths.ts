import type { SmsTemplateKind } from '@herald/shared/schemas/sms-template.schema';

/** Where the SMS template screens live (console-spec §2 /s_sendRelative/template/*). */
export const TEMPLATES_PATH = '/s_sendRelative/template';
export const COUNT_TEST_PATH = `${TEMPLATES_PATH}/countTest`;
export const PREVIEW_PATH = `${TEMPLATES_PATH}/s_preview`;
export const SIGNS_PATH = '/s_sendRelative/sign';
export const EDIT_PATHS: Record<SmsTemplateKind, string> = {
  sms: `${TEMPLATES_PATH}/s_templateOpt`,
  voice: `${TEMPLATES_PATH}/voice_templateOpt`,
  mms: `${TEMPLATES_PATH}/mms_templateOpt`,
};

/** Bytes as the size meter shows them: B below 1 KB, else KB with one decimal. */
export function formatBytes(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}
