import { ADDRESS_LIST_ERRORS } from './errors/address-list.errors.ts';
import { API_USER_ERRORS } from './errors/api-user.errors.ts';
import { DEDICATED_IP_ERRORS } from './errors/dedicated-ip.errors.ts';
import { DNS_CHECK_ERRORS } from './errors/dns-check.errors.ts';
import { DOMAIN_ERRORS } from './errors/domain.errors.ts';
import type { ErrorDefinition } from './errors/error-definition.ts';
import { EXPORT_ERRORS } from './errors/export.errors.ts';
import { INVOICE_ERRORS } from './errors/invoice.errors.ts';
import { LEDGER_ERRORS } from './errors/ledger.errors.ts';
import { MAIL_ROUTE_ERRORS } from './errors/mail-route.errors.ts';
import { PLAN_ERRORS } from './errors/plan.errors.ts';
import { PROFILE_ERRORS } from './errors/profile.errors.ts';
import { QUEUE_ERRORS } from './errors/queue.errors.ts';
import { RECHARGE_ERRORS } from './errors/recharge.errors.ts';
import { SEND_ERRORS } from './errors/send.errors.ts';
import { SEND_CALENDAR_ERRORS } from './errors/send-calendar.errors.ts';
import { SENDER_CONFIG_ERRORS } from './errors/sender-config.errors.ts';
import { SITE_MESSAGE_ERRORS } from './errors/site-message.errors.ts';
import { SMS_API_ERRORS } from './errors/sms-api.errors.ts';
import { SMS_CARRIER_ERRORS } from './errors/sms-carrier.errors.ts';
import { SMS_CONTACT_ERRORS } from './errors/sms-contact.errors.ts';
import { SMS_CONTENT_VIEW_ERRORS } from './errors/sms-content-view.errors.ts';
import { SMS_FILING_ERRORS } from './errors/sms-filing.errors.ts';
import { SMS_GATEWAY_ERRORS } from './errors/sms-gateway.errors.ts';
import { SMS_IMPORT_ERRORS } from './errors/sms-import.errors.ts';
import { SMS_LABEL_ERRORS } from './errors/sms-label.errors.ts';
import { SMS_LINK_ERRORS } from './errors/sms-link.errors.ts';
import { SMS_PAUSE_ERRORS } from './errors/sms-pause.errors.ts';
import { SMS_PRICE_ERRORS } from './errors/sms-price.errors.ts';
import { SMS_SIGN_ERRORS } from './errors/sms-sign.errors.ts';
import { SMS_TASK_ERRORS } from './errors/sms-task.errors.ts';
import { SMS_TEMPLATE_ERRORS } from './errors/sms-template.errors.ts';
import { SMS_USER_ERRORS } from './errors/sms-user.errors.ts';
import { STATISTICS_ERRORS } from './errors/statistics.errors.ts';
import { SUBSCRIPTION_ERRORS } from './errors/subscription.errors.ts';
import { SUPPRESSION_ERRORS } from './errors/suppression.errors.ts';
import { TEMPLATE_ERRORS } from './errors/template.errors.ts';
import { TIMED_TASK_ERRORS } from './errors/timed-task.errors.ts';
import { TRACKING_ERRORS } from './errors/tracking.errors.ts';
import { UNSUBSCRIBE_ERRORS } from './errors/unsubscribe.errors.ts';
import { VOUCHER_ERRORS } from './errors/voucher.errors.ts';
import { WEBHOOK_ERRORS } from './errors/webhook.errors.ts';
import type { Lang } from './lang.ts';

export type { ErrorDefinition } from './errors/error-definition.ts';

/**
 * The error vocabulary. Every failure the core can report is one of these codes; each edge
 * (HTTP console API, SendCloud-compatible API, SMTP, queue jobs) maps a code to its own
 * protocol, and the console translates by code. `status` is the console API's HTTP status
 * (console-spec §8); messages may hold `{name}` placeholders filled from AppError params.
 * A drift test fails when a code lacks a message in either language.
 */
const CORE_ERRORS = {
  COMMON_ROUTE_NOT_FOUND: {
    status: 404,
    'zh-cn': '您访问的链接不存在',
    en: 'The link you visited cannot be found',
  },
  API_ACTION_UNKNOWN: {
    status: 404,
    'zh-cn': '接口不存在：{action}',
    en: 'No such API action: {action}',
  },
  API_FORMAT_REQUIRED: {
    status: 400,
    'zh-cn': '请在接口地址末尾指明返回格式：.json 或 .xml',
    en: 'End the call with its answer format: .json or .xml',
  },
  COMMON_NOT_FOUND: {
    status: 404,
    'zh-cn': '{entity}不存在',
    en: '{entity} not found',
  },
  COMMON_MALFORMED_BODY: {
    status: 400,
    'zh-cn': '请求内容格式错误：{detail}',
    en: 'The request body is malformed: {detail}',
  },
  COMMON_BODY_INCOMPLETE: {
    status: 400,
    'zh-cn': '请求内容不完整：请求体未传完连接就已结束',
    en: 'The request body is incomplete: the connection ended before all of it arrived',
  },
  COMMON_VALIDATION_FAILED: {
    status: 400,
    'zh-cn': '输入的数据不合法',
    en: 'The entered data is not valid',
  },
  COMMON_PAYLOAD_TOO_LARGE: {
    status: 413,
    'zh-cn': '请求内容过大',
    en: 'The request is too large',
  },
  COMMON_UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    'zh-cn': '不支持的内容类型：{contentType}',
    en: 'Unsupported content type: {contentType}',
  },
  COMMON_CROSS_SITE: {
    status: 403,
    'zh-cn': '请求来自其他网站，已拒绝',
    en: 'The request came from another site and was refused',
  },
  COMMON_RATE_LIMITED: {
    status: 429,
    'zh-cn': '请求过于频繁，请稍后再试',
    en: 'Too many requests, please try again later',
  },
  COMMON_INTERNAL: {
    status: 500,
    'zh-cn': '服务器内部错误，请稍后再试',
    en: 'Internal server error, please try again later',
  },
  COMMON_UNAVAILABLE: {
    status: 503,
    'zh-cn': '服务暂不可用：{detail}',
    en: 'Service unavailable: {detail}',
  },
  AUTH_REQUIRED: {
    status: 401,
    'zh-cn': '您还未登录，请先登录',
    en: 'You are not logged in, please log in first',
  },
  AUTH_PERMISSION_DENIED: {
    status: 403,
    'zh-cn': '权限不足，请联系团队管理员',
    en: 'Insufficient permission, please contact your team administrator',
  },
  AUTH_BAD_CREDENTIALS: {
    status: 400,
    'zh-cn': '用户名或密码错误',
    en: 'Incorrect user name or password',
  },
  AUTH_LOCKED: {
    status: 429,
    'zh-cn': '登录失败次数过多，请{minutes}分钟后再试',
    en: 'Too many failed logins, please try again in {minutes} minutes',
  },
  ACCOUNT_SUSPENDED: {
    status: 403,
    sendCloud: 40905,
    'zh-cn': '账号已被停用，请联系客服',
    en: 'The account is suspended, please contact support',
  },
  ACCOUNT_FROZEN: {
    status: 403,
    sendCloud: 40906,
    'zh-cn': '账号已被冻结，暂时不能发送，请联系客服',
    en: 'The account is frozen and cannot send for now, please contact support',
  },
  USER_NAME_TAKEN: {
    status: 422,
    'zh-cn': '用户名已被使用',
    en: 'The user name is already used',
  },
  EMAIL_TAKEN: {
    status: 422,
    'zh-cn': '邮箱已存在',
    en: 'The mailbox already exists',
  },
  PHONE_TAKEN: {
    status: 422,
    'zh-cn': '手机号已存在',
    en: 'The phone number already exists',
  },
  ACTIVATION_LINK_INVALID: {
    status: 410,
    'zh-cn': '激活链接无效或已过期，请重新发送激活邮件',
    en: 'The activation link is invalid or has expired, please resend the activation mail',
  },
  RESET_LINK_INVALID: {
    status: 410,
    'zh-cn': '重置链接无效或已过期，请重新申请',
    en: 'The reset link is invalid or has expired, please request a new one',
  },
  PASSWORD_OLD_INCORRECT: {
    status: 400,
    'zh-cn': '原密码错误',
    en: 'The current password is incorrect',
  },
  PASSWORD_CHECK_LOCKED: {
    status: 429,
    'zh-cn': '原密码错误次数过多，请{minutes}分钟后再试',
    en: 'Too many wrong current passwords, please try again in {minutes} minutes',
  },
  ACCOUNT_NOT_ACTIVE: {
    status: 428,
    'zh-cn': '账号未激活，请先激活',
    en: 'Account is not active, please activate first',
  },
  SMS_CARRIER_NOT_CONFIGURED: {
    status: 503,
    'zh-cn': '短信通道未配置，暂时无法发送短信',
    en: 'No SMS carrier is configured, SMS cannot be sent',
  },
  CAPTCHA_REQUIRED: {
    status: 400,
    'zh-cn': '请输入图片验证码',
    en: 'Please enter the image verification code',
  },
  CAPTCHA_INVALID: {
    status: 400,
    'zh-cn': '图形验证码错误或已失效，请刷新后重试',
    en: 'The image code is incorrect or has expired, please refresh it and try again',
  },
  SLIDER_FAILED: {
    status: 400,
    'zh-cn': '验证失败，请重新验证',
    en: 'Verification failed, please try again',
  },
  SLIDER_REQUIRED: {
    status: 400,
    'zh-cn': '请先完成滑块验证',
    en: 'Please complete the slider verification first',
  },
  VERIFY_CODE_INVALID: {
    status: 400,
    'zh-cn': '验证码错误或已失效',
    en: 'Verification code is incorrect or has expired',
  },
  VERIFY_CODE_ATTEMPTS_EXCEEDED: {
    status: 400,
    'zh-cn': '验证码错误次数过多，请重新获取验证码',
    en: 'Too many incorrect attempts, please request a new verification code',
  },
  VERIFY_SEND_TOO_SOON: {
    status: 429,
    'zh-cn': '发送间隔太短，请1分钟后再试',
    en: 'The sending interval is too short, try again after 1 minute',
  },
  VERIFY_SEND_LIMIT_HOURLY: {
    status: 429,
    'zh-cn': '验证码发送过于频繁：每小时最多发送{limit}次，请稍后再试',
    en: 'Too many verification codes: at most {limit} per hour, please try again later',
  },
  VERIFY_SEND_LIMIT_DAILY: {
    status: 429,
    'zh-cn': '验证码发送过于频繁：24小时内最多发送{limit}次，请明天再试',
    en: 'Too many verification codes: at most {limit} per 24 hours, please try again tomorrow',
  },
  VERIFY_SEND_FAILED: {
    status: 502,
    'zh-cn': '验证码发送失败，请稍后再试',
    en: 'Sending the verification code failed, please try again later',
  },
  TOTP_CODE_INVALID: {
    status: 400,
    'zh-cn': '动态验证码错误',
    en: 'The authenticator code is incorrect',
  },
  VERIFY_REQUIRED: {
    status: 403,
    'zh-cn': '该操作需要安全验证，请先完成身份验证（10分钟内有效）',
    en: 'This operation needs security verification; please verify your identity first (valid for 10 minutes)',
  },
  VERIFY_DOWNLOAD_REQUIRED: {
    status: 403,
    'zh-cn': '下载数据需要安全验证，请先完成身份验证（10分钟内有效）',
    en: 'Downloading needs security verification; please verify your identity first (valid for 10 minutes)',
  },
  VERIFY_WAY_UNAVAILABLE: {
    status: 400,
    'zh-cn': '该验证方式不可用，请选择其他验证方式',
    en: 'This verification way is not available, please choose another one',
  },
  LOGIN_VERIFY_EXPIRED: {
    status: 401,
    'zh-cn': '登录验证已失效，请重新登录',
    en: 'The login verification has expired, please log in again',
  },
  GOOGLE_AUTH_NOT_BOUND: {
    status: 400,
    'zh-cn': '尚未绑定谷歌身份验证器',
    en: 'No Google authenticator is bound',
  },
  GOOGLE_AUTH_ALREADY_BOUND: {
    status: 400,
    'zh-cn': '已绑定谷歌身份验证器，如需更换请先解绑',
    en: 'A Google authenticator is already bound; unbind it first to change it',
  },
  GOOGLE_AUTH_QR_EXPIRED: {
    status: 400,
    'zh-cn': '二维码已过期，请刷新二维码后重新扫描绑定',
    en: 'The QR code has expired, please get a new one and scan it again',
  },
  GOOGLE_AUTH_IN_USE: {
    status: 400,
    'zh-cn': '谷歌身份验证器正用于登录验证，请先更换登录验证方式再解绑',
    en: 'The Google authenticator is your login verification way; choose another way before unbinding it',
  },
  IP_NOT_WHITELISTED: {
    status: 403,
    'zh-cn': '当前IP（{ip}）不在账号的IP白名单中，禁止访问',
    en: 'Your IP address ({ip}) is not in the account IP whitelist, access denied',
  },
  IP_WHITELIST_SELF_EXCLUDED: {
    status: 400,
    'zh-cn': 'IP白名单须包含您当前的IP（{ip}），否则您将无法访问',
    en: 'The IP whitelist must include your current IP address ({ip}), or you would lock yourself out',
  },
  AUTH_READ_ONLY: {
    status: 403,
    'zh-cn': '您只有查看权限，不能修改或下载，请联系团队管理员',
    en: 'You can only view this, not change or download it; please contact your team administrator',
  },
  MEMBER_NOT_FOUND: {
    status: 404,
    'zh-cn': '团队成员不存在',
    en: 'The teammate does not exist',
  },
  MEMBER_LIMIT_REACHED: {
    status: 422,
    'zh-cn': '您已添加{max}位团队成员，已达上限',
    en: 'You have added {max} teammates already, the maximum',
  },
  MEMBER_ALREADY_JOINED: {
    status: 422,
    'zh-cn': '该成员已加入团队，无需重新邀请',
    en: 'This teammate has already joined; there is nothing to re-invite',
  },
  MEMBER_SELF_CHANGE: {
    status: 422,
    'zh-cn': '不能修改或删除自己的成员权限，请联系其他管理员',
    en: 'You cannot change or delete your own teammate access; ask another administrator',
  },
  MEMBER_INVITE_INVALID: {
    status: 410,
    'zh-cn': '邀请链接无效或已过期，请联系团队管理员重新邀请',
    en: 'The invitation link is invalid or has expired, please ask your team administrator to invite you again',
  },
  WECHAT_NOT_CONFIGURED: {
    status: 503,
    'zh-cn': '微信登录未开通，请联系平台管理员',
    en: 'WeChat login is not configured on this platform; please contact the platform operator',
  },
  WECHAT_STATE_EXPIRED: {
    status: 422,
    'zh-cn': '二维码已过期，请重新扫码',
    en: 'The QR code has expired, please scan again',
  },
  WECHAT_AUTH_DENIED: {
    status: 422,
    'zh-cn': '微信授权已取消，请重新扫码',
    en: 'The WeChat authorisation was cancelled, please scan again',
  },
  WECHAT_PROVIDER_ERROR: {
    status: 502,
    'zh-cn': '微信授权失败（{errcode}：{errmsg}），请重新扫码',
    en: 'WeChat authorisation failed ({errcode}: {errmsg}), please scan again',
  },
  WECHAT_PROVIDER_UNREACHABLE: {
    status: 502,
    'zh-cn': '无法连接微信服务，请稍后再试',
    en: 'The WeChat service could not be reached, please try again later',
  },
  WECHAT_ALREADY_BOUND: {
    status: 409,
    'zh-cn': '绑定失败：该微信已绑定其他账号',
    en: 'Binding failed: this WeChat is already bound to another account',
  },
  WECHAT_USER_HAS_BINDING: {
    status: 409,
    'zh-cn': '绑定失败：该账号已绑定其他微信，请先解绑',
    en: 'Binding failed: this account is already bound to another WeChat; unbind it first',
  },
  WECHAT_NOT_BOUND: {
    status: 400,
    'zh-cn': '尚未绑定微信',
    en: 'No WeChat is bound',
  },
  WECHAT_UNBIND_BLOCKED: {
    status: 400,
    'zh-cn': '已开启谷歌身份验证，不能解绑微信，请先关闭谷歌身份验证',
    en: 'WeChat cannot be unbound while Google authentication is enabled; turn it off first',
  },
} as const satisfies Record<string, ErrorDefinition>;

/** The whole catalogue: the accounts and platform codes above, and one file per later area. */
export const ERRORS = {
  ...CORE_ERRORS,
  ...TRACKING_ERRORS,
  ...PROFILE_ERRORS,
  ...DOMAIN_ERRORS,
  ...API_USER_ERRORS,
  ...TEMPLATE_ERRORS,
  ...SEND_ERRORS,
  ...SEND_CALENDAR_ERRORS,
  ...SENDER_CONFIG_ERRORS,
  ...QUEUE_ERRORS,
  ...SUPPRESSION_ERRORS,
  ...STATISTICS_ERRORS,
  ...WEBHOOK_ERRORS,
  ...EXPORT_ERRORS,
  ...UNSUBSCRIBE_ERRORS,
  ...PLAN_ERRORS,
  ...LEDGER_ERRORS,
  ...RECHARGE_ERRORS,
  ...DEDICATED_IP_ERRORS,
  ...INVOICE_ERRORS,
  ...VOUCHER_ERRORS,
  ...DNS_CHECK_ERRORS,
  ...SMS_USER_ERRORS,
  ...SMS_API_ERRORS,
  ...SMS_SIGN_ERRORS,
  ...SMS_TEMPLATE_ERRORS,
  ...SMS_FILING_ERRORS,
  ...SMS_PAUSE_ERRORS,
  ...SMS_LINK_ERRORS,
  ...MAIL_ROUTE_ERRORS,
  ...SMS_LABEL_ERRORS,
  ...SMS_CONTACT_ERRORS,
  ...ADDRESS_LIST_ERRORS,
  ...SUBSCRIPTION_ERRORS,
  ...SMS_TASK_ERRORS,
  ...TIMED_TASK_ERRORS,
  ...SMS_PRICE_ERRORS,
  ...SMS_CARRIER_ERRORS,
  ...SMS_IMPORT_ERRORS,
  ...SMS_CONTENT_VIEW_ERRORS,
  ...SMS_GATEWAY_ERRORS,
  ...SITE_MESSAGE_ERRORS,
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorCode = keyof typeof ERRORS;
export type ErrorParams = Record<string, string | number>;

/** Field-level problems reported with COMMON_VALIDATION_FAILED. */
export interface FieldError {
  field: string;
  message: string;
}

/** Thrown by the core; mapped to a protocol by each edge. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly params: ErrorParams;
  readonly fields: FieldError[];

  constructor(code: ErrorCode, params: ErrorParams = {}, fields: FieldError[] = []) {
    super(formatMessage(code, 'en', params));
    this.name = 'AppError';
    this.code = code;
    this.params = params;
    this.fields = fields;
  }

  get status(): number {
    return ERRORS[this.code].status;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

export function formatMessage(code: ErrorCode, lang: Lang, params: ErrorParams = {}): string {
  return interpolate(ERRORS[code][lang], params);
}

export function interpolate(template: string, params: ErrorParams): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in params ? String(params[key]) : whole,
  );
}
