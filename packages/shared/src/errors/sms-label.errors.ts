import type { ErrorDefinition } from './error-definition.ts';

/**
 * SMS labels (issue 20): the console's `/sms/smsLabels`, the SMS API's `label/*` and the
 * `labelId` of its sends. SendCloud's SMS API documents no number for labels (reference §11), so
 * Herald takes free ones of the 4xx parameter range, after the 48x variable codes.
 */
export const SMS_LABEL_ERRORS = {
  /** 491: no SMS label of the account has this id (an email label's id is not one either). */
  SMS_LABEL_NOT_FOUND: {
    status: 404,
    sendCloud: 491,
    'zh-cn': '短信标签不存在',
    en: 'The SMS label does not exist',
  },
  SMS_LABEL_NAME_TAKEN: {
    status: 422,
    sendCloud: 492,
    'zh-cn': '短信标签名称已存在',
    en: 'You already have an SMS label with this name',
  },
  /** 493: the SMS API's labelName is empty or too long (the console names the field's rule instead). */
  SMS_LABEL_NAME_INVALID: {
    status: 400,
    sendCloud: 493,
    'zh-cn': '标签名称的长度应为1到255个字符',
    en: 'A label name has 1 to 255 characters',
  },
} as const satisfies Record<string, ErrorDefinition>;
