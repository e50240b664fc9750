import type { RuleMessages } from './error-definition.ts';

/** Field-rule messages of the subscription form (product-spec §5) and of the public page's form. */
export const SUBSCRIPTION_RULES = {
  subscriptionName: { 'zh-cn': '请输入订阅名称', en: 'Enter a name' },
  subscriptionLogoUrl: {
    'zh-cn': '请输入以http://或https://开头的Logo地址',
    en: 'Enter a logo URL beginning with http:// or https://',
  },
  subscriptionSubject: { 'zh-cn': '请输入确认邮件标题', en: 'Enter the confirmation mail subject' },
  subscriptionFromName: { 'zh-cn': '请输入发信人名称', en: 'Enter the from name' },
  subscriptionFromAddress: { 'zh-cn': '请输入发信地址', en: 'Enter the from address' },
  subscriptionApiUser: { 'zh-cn': '请选择API_USER', en: 'Choose an API_USER' },
  subscriptionApiKey: { 'zh-cn': '请输入API_KEY', en: 'Enter the API_KEY' },
  subscriptionList: { 'zh-cn': '请选择地址列表', en: 'Choose an address list' },
  subscriptionDisplayMode: {
    'zh-cn': '展示方式为新页面、嵌入、弹窗、底部栏或顶部栏',
    en: 'The display mode is new tab, embedded, pop-up, bottom bar or top bar',
  },
  subscriptionThemeColor: {
    'zh-cn': '主题色为#开头的6位十六进制颜色',
    en: 'The theme colour is # and 6 hexadecimal digits',
  },
  captchaRequired: { 'zh-cn': '请输入图片验证码', en: 'Enter the image code' },
} as const satisfies RuleMessages;
