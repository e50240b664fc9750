import type { RuleMessages } from './error-definition.ts';

/** Field-rule messages of the invoice profile and application forms (reference §4.4, §5). */
export const INVOICE_RULES = {
  invoiceTitle: {
    'zh-cn': '请输入发票抬头(公司名称), 最多100个字符',
    en: 'Enter the invoice title (company name), at most 100 characters',
  },
  invoiceTaxpayerId: {
    'zh-cn': '纳税人识别号须为15、17、18或20位字母和数字; 18位统一社会信用代码的校验位不正确',
    en: 'A taxpayer ID is 15, 17, 18 or 20 letters and digits; an 18-character unified social credit code must have a correct check character',
  },
  invoiceBankName: {
    'zh-cn': '请输入开户银行, 最多100个字符',
    en: 'Enter the bank, at most 100 characters',
  },
  invoiceBankAccount: {
    'zh-cn': '银行账号须为8到32位数字',
    en: 'The bank account is 8 to 32 digits',
  },
  invoiceAddress: {
    'zh-cn': '请输入注册地址, 最多200个字符',
    en: 'Enter the registered address, at most 200 characters',
  },
  invoicePhone: {
    'zh-cn': '请输入正确的注册电话',
    en: 'Enter a valid registered phone number',
  },
  invoiceAmount: {
    'zh-cn': '请输入开票金额(至少0.01元), 最多两位小数',
    en: 'Enter the invoice amount (at least 0.01 yuan), with at most two decimals',
  },
  invoiceType: { 'zh-cn': '请选择发票类型', en: 'Choose an invoice type' },
  invoiceMaterial: { 'zh-cn': '请选择发票材质', en: 'Choose the invoice material' },
  invoiceMaterialMismatch: {
    'zh-cn': '电子发票为电子材质, 普通发票和增值税专用发票为纸质',
    en: 'An electronic invoice is electronic; ordinary and VAT special invoices are paper',
  },
  invoiceDelivery: { 'zh-cn': '请选择寄送方式', en: 'Choose a delivery' },
  invoiceDeliveryMismatch: {
    'zh-cn': '电子发票通过邮件发送, 纸质发票邮寄或到付',
    en: 'An electronic invoice goes by email; a paper invoice by post or pay on arrival',
  },
  invoiceMethod: { 'zh-cn': '请选择开票方式', en: 'Choose how to invoice' },
  invoiceEmailRequired: {
    'zh-cn': '请输入接收电子发票的邮箱',
    en: 'Enter the email address to receive the electronic invoice',
  },
  invoiceRecipient: {
    'zh-cn': '请输入收件人, 最多50个字符',
    en: 'Enter the recipient, at most 50 characters',
  },
  invoiceRecipientPhone: {
    'zh-cn': '请输入正确的收件人电话',
    en: "Enter the recipient's phone number",
  },
  invoiceMailingAddress: {
    'zh-cn': '请输入邮寄地址, 最多200个字符',
    en: 'Enter the mailing address, at most 200 characters',
  },
  invoiceRejectReason: {
    'zh-cn': '请输入驳回原因, 最多200个字符',
    en: 'Enter the reason for the rejection, at most 200 characters',
  },
  invoiceExpressNo: {
    'zh-cn': '请输入快递单号, 最多64个字符',
    en: 'Enter the express number, at most 64 characters',
  },
} as const satisfies RuleMessages;
