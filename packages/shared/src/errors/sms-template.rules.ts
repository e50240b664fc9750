import type { RuleMessages } from './error-definition.ts';

/** Field-rule messages of SMS, voice and MMS templates (product-spec §5), used by their shared schema. */
export const SMS_TEMPLATE_RULES = {
  smsTemplateName: {
    'zh-cn': '模板名称最多64个字符，只能包含字母、数字和下划线',
    en: 'The template name is at most 64 letters, digits or underscores',
  },
  smsTemplateType: {
    'zh-cn': '请选择模板类型：验证码、通知或营销',
    en: 'Choose the template type: verification code, notification or marketing',
  },
  smsTemplateRegion: {
    'zh-cn': '请选择国内或国际短信',
    en: 'Choose domestic or international SMS',
  },
  smsTemplateSign: { 'zh-cn': '请选择签名', en: 'Choose a signature' },
  smsContentLength: {
    'zh-cn': '短信内容最多500个字符',
    en: 'The SMS content is at most 500 characters',
  },
  smsContentBrackets: {
    'zh-cn': '内容不能包含括号字符 [ ] 【 】 ［ ］，签名由平台自动添加',
    en: 'The content must not hold the brackets [ ] 【 】 ［ ］; the signature is added for you',
  },
  smsContentNbsp: {
    'zh-cn': '内容不能包含不间断空格，请改用普通空格',
    en: 'The content must not hold non-breaking spaces; use ordinary spaces',
  },
  smsVarNameChinese: {
    'zh-cn': '变量名不能是中文，只能由字母、数字和下划线组成，如 %name%',
    en: 'Variable names cannot be Chinese: use letters, digits and underscores, such as %name%',
  },
  smsVarExampleRequired: {
    'zh-cn': '请填写变量示例',
    en: 'Enter an example for the variable',
  },
  smsVarExample: {
    'zh-cn': '变量示例最多32个字符，且不能包含链接',
    en: 'A variable example is at most 32 characters and holds no link',
  },
  smsLinkScheme: {
    'zh-cn': '链接必须以 http:// 或 https:// 开头',
    en: 'Links must start with http:// or https://',
  },
  smsLinkSpaces: {
    'zh-cn': '链接前后须各留一个空格',
    en: 'Put a space before and after each link',
  },
  smsMarketingOptOut: {
    'zh-cn': '营销短信须以“拒收请回复R”结尾，其后不能有任何内容',
    en: 'A marketing SMS must end with "拒收请回复R" (or "Reply R to unsubscribe") with nothing after it',
  },
  smsVoiceCode: {
    'zh-cn': '语音模板须包含且只能包含一个变量 %code%',
    en: 'A voice template holds exactly one variable, %code%',
  },
  smsVoiceCodeExample: {
    'zh-cn': '验证码示例须为4到6位数字',
    en: 'The code example must be 4 to 6 digits',
  },
  smsMmsTitle: {
    'zh-cn': '请填写彩信标题，最多40个字符',
    en: 'Enter the MMS title, at most 40 characters',
  },
  smsMmsPages: {
    'zh-cn': '彩信须有1到3页',
    en: 'An MMS has 1 to 3 pages',
  },
  smsMmsPageEmpty: {
    'zh-cn': '每一页至少要有文字、图片或音频之一',
    en: 'Each page needs text, an image or a sound',
  },
  smsMmsSize: {
    'zh-cn': '彩信总大小须小于100KB',
    en: 'The whole MMS must be under 100 KB',
  },
  smsMmsImage: {
    'zh-cn': '图片须为 jpg、png 或 gif 文件',
    en: 'The image must be a jpg, png or gif file',
  },
  smsMmsAudio: {
    'zh-cn': '音频须为 mp3、amr、mid 或 wav 文件',
    en: 'The sound must be an mp3, amr, mid or wav file',
  },
  smsMmsPageText: {
    'zh-cn': '每页文字最多500个字符',
    en: 'A page text is at most 500 characters',
  },
} as const satisfies RuleMessages;
