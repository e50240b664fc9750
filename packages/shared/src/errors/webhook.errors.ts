import type { ErrorDefinition } from './error-definition.ts';

/**
 * Error codes of webhooks (`/config/webhooks`, SendCloud `webhook/*`). The `sendCloud` numbers
 * are SendCloud's webhook codes 40701–40712 (email_v2/index.md): 40701/40702 the API_USER
 * ("group"), 40703/40704 the events, 40705–40708 the URL, 40709 not found, 40710–40712 a failed
 * create, delete or update.
 */
export const WEBHOOK_ERRORS = {
  WEBHOOK_NOT_FOUND: {
    status: 404,
    sendCloud: 40709,
    'zh-cn': 'WebHook配置不存在',
    en: 'Webhook not found',
  },
  WEBHOOK_DELIVERY_NOT_FOUND: {
    status: 404,
    'zh-cn': '推送记录不存在',
    en: 'Push not found',
  },
  WEBHOOK_CATEGORY_REQUIRED: {
    status: 400,
    sendCloud: 40701,
    'zh-cn': 'categoryName不能为空，请填写API_USER或all',
    en: 'categoryName is required: an API_USER or all',
  },
  WEBHOOK_CATEGORY_INVALID: {
    status: 400,
    sendCloud: 40702,
    'zh-cn': 'API_USER不存在：{name}',
    en: 'No such API_USER: {name}',
  },
  WEBHOOK_EVENT_REQUIRED: {
    status: 400,
    sendCloud: 40703,
    'zh-cn': '事件类型不能为空',
    en: 'Choose at least one event',
  },
  WEBHOOK_EVENT_INVALID: {
    status: 400,
    sendCloud: 40704,
    'zh-cn': '事件类型格式错误，没有可用的事件类型：{name}',
    en: 'Unknown event type: {name}',
  },
  WEBHOOK_URL_REQUIRED: {
    status: 400,
    sendCloud: 40705,
    'zh-cn': 'url不能为空',
    en: 'The URL is required',
  },
  WEBHOOK_URL_INVALID: {
    status: 400,
    sendCloud: 40706,
    'zh-cn': 'url格式错误，必须以http://或https://开头',
    en: 'Invalid URL: it must begin with http:// or https://',
  },
  WEBHOOK_URL_REFUSED: {
    status: 400,
    sendCloud: 40706,
    'zh-cn': 'url指向内网、回环或保留地址（{address}），不允许使用',
    en: 'The URL points to a private, loopback or reserved address ({address}), which is not allowed',
  },
  WEBHOOK_URL_TEST_FAILED: {
    status: 400,
    sendCloud: 40707,
    'zh-cn': 'url测试失败：{detail}。保存时会向该地址POST一个测试请求，须在3秒内返回HTTP 200',
    en: 'URL test failed: {detail}. On save Herald POSTs a test request, which must answer HTTP 200 within 3 seconds',
  },
  WEBHOOK_URL_EXISTS: {
    status: 422,
    sendCloud: 40708,
    'zh-cn': '该API_USER已有相同url的WebHook',
    en: 'A webhook with this URL already exists for this API_USER',
  },
  WEBHOOK_LIMIT_REACHED: {
    status: 400,
    sendCloud: 40710,
    'zh-cn': '最多只能创建{max}个WebHook',
    en: 'At most {max} webhooks per account',
  },
  WEBHOOK_UPDATE_ONE: {
    status: 400,
    sendCloud: 40712,
    'zh-cn': '每次只能修改newCategoryName、newUrl、newEvent中的一项，且不能为空',
    en: 'Change exactly one of newCategoryName, newUrl and newEvent, and not to an empty value',
  },
} as const satisfies Record<string, ErrorDefinition>;
