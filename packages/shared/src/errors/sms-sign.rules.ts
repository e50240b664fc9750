import type { RuleMessages } from './error-definition.ts';

/** Field-rule messages of SMS signatures (product-spec §5), used by their shared schema. */
export const SMS_SIGN_RULES = {
  smsSignNameSpaces: {
    'zh-cn': '签名首尾不能有空格',
    en: 'The signature must not begin or end with a space',
  },
  smsSignNameBrackets: {
    'zh-cn': '签名不能包含括号（包括【】及全角括号）',
    en: 'The signature must not contain brackets of any kind, including 【】 and full-width ones',
  },
  smsSignNameChars: {
    'zh-cn': '签名只能包含中文、字母和数字',
    en: 'The signature may contain only Chinese characters, letters and digits',
  },
  smsSignNameLength: {
    'zh-cn': '签名为2-12个字符',
    en: 'The signature must be 2-12 characters',
  },
  smsSignNameDigits: {
    'zh-cn': '签名不能为纯数字',
    en: 'The signature must not be digits only',
  },
  smsSignNameNeutral: {
    'zh-cn': '不能使用中性或测试签名（如“测试”“验证码”“短信通知”）',
    en: 'Neutral or test signatures (such as “test”, “验证码” or “短信通知”) are not allowed',
  },
  smsSignType: {
    'zh-cn': '请选择签名类型：国内或国际',
    en: 'Choose the signature type: domestic or international',
  },
  smsSignSource: {
    'zh-cn': '请选择签名来源',
    en: 'Choose where the signature comes from',
  },
  smsSignIdSide: {
    'zh-cn': '请选择证件照片的面：正面或反面',
    en: 'Choose the side of the ID document: front or back',
  },
  smsSignLicenseRequired: {
    'zh-cn': '请上传第三方营业执照图片',
    en: 'Upload the third party’s business licence image',
  },
  smsSignImageOnly: {
    'zh-cn': '请上传 png、jpg 或 jpeg 图片',
    en: 'Upload a png, jpg or jpeg image',
  },
  smsSignAttachmentsMax: {
    'zh-cn': '最多上传5个附件',
    en: 'At most 5 attachments',
  },
  smsPersonName: {
    'zh-cn': '姓名为2-30个汉字或字母',
    en: 'The name must be 2-30 Chinese characters or letters',
  },
  smsComplianceReason: {
    'zh-cn': '请填写驳回原因（最多200字）',
    en: 'Enter the reason for the rejection (at most 200 characters)',
  },
} as const satisfies RuleMessages;
