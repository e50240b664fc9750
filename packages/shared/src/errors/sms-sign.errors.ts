import type { ErrorDefinition } from './error-definition.ts';

/** SMS signature and upload codes (product-spec §3, §5, §8). */
export const SMS_SIGN_ERRORS = {
  SMS_SIGN_NOT_FOUND: {
    status: 404,
    'zh-cn': '签名不存在',
    en: 'Signature not found',
  },
  SMS_SIGN_NAME_TAKEN: {
    status: 422,
    'zh-cn': '该签名已存在',
    en: 'You already have this signature',
  },
  SMS_SIGN_REVIEW_NOT_PENDING: {
    status: 409,
    'zh-cn': '该签名不在审核中，请刷新后再试',
    en: 'This signature is not awaiting review; refresh and try again',
  },
  SMS_UPLOAD_MISSING: {
    status: 400,
    'zh-cn': '请选择要上传的文件',
    en: 'Choose a file to upload',
  },
  SMS_UPLOAD_EMPTY: {
    status: 400,
    'zh-cn': '上传的文件为空',
    en: 'Uploaded file is empty',
  },
  SMS_UPLOAD_TOO_LARGE: {
    status: 400,
    'zh-cn': '文件超出大小，最大{max}',
    en: 'Files exceed size, up to {max}',
  },
  SMS_UPLOAD_FORMAT: {
    status: 400,
    'zh-cn': '文件格式错误，仅支持 png、jpg、jpeg 或 pdf',
    en: 'The file format is wrong: only png, jpg, jpeg or pdf',
  },
  SMS_UPLOAD_INVALID: {
    status: 400,
    'zh-cn': '上传文件无效（内容与文件类型不符），请重新上传',
    en: 'Upload file invalid (its content does not match its type), please re-upload',
  },
  SMS_UPLOAD_NOT_FOUND: {
    status: 404,
    'zh-cn': '文件不存在或已删除，请重新上传',
    en: 'The file does not exist or was deleted, please upload it again',
  },
} as const satisfies Record<string, ErrorDefinition>;
