/**
 * Every exception to the HTTP client's status handling (console-spec §7, §8), as data in one
 * place. Each entry is a fragment matched against the request URL as the caller wrote it
 * (before the base is added), case-sensitively, with `includes`, the way the spec names them.
 */

/** URLs containing one of these use the base `/v3` instead of `/v3/api` (§7 General). */
export const V3_BASE_FRAGMENTS = ['/oauth', '/access', '/static', '/user/loginVerify'] as const;

/**
 * A GET to a URL containing one of these cancels a GET to the same path still pending, whatever
 * its query (§4 step 6): data screens refetch on every filter change and only the last answer
 * matters. Case-sensitive: `trackData` is listed because `data` does not match its capital D.
 */
export const DEDUPED_GET_FRAGMENTS = ['data', 'stat', 'trackData'] as const;

/** 201 without the "Successful operation" toast: the screen reports these itself. */
export const SILENT_CREATED = [
  'cname/check',
  'wechat/quickBind',
  'wechat/quickLogin',
  '/access/register',
  'shortLink',
  'getQueueDetailList',
  'recoverPausedQueue',
  'lotteryDraw',
  'exchangePrize',
  'edited/passwd',
  'password/change',
] as const;

/** 204 without the "Successful deletion" toast. */
export const SILENT_NO_CONTENT = ['active/sms', 'active/email'] as const;

/** 400 without an error toast: SMS code checks, the login token call, the email routes config. */
export const SILENT_BAD_REQUEST = [
  'smsCode/check',
  'smsCodeCheck',
  '/oauth/token',
  '/config/routes',
] as const;

/** 403 is silent for every GET and for these. */
export const SILENT_FORBIDDEN = ['userTrack'] as const;

/** 422 without an error toast: polling and availability checks the form shows inline. */
export const SILENT_UNPROCESSABLE = [
  'upload/progress',
  'uploadProgress',
  'register/checkUserName',
  'register/checkPhone',
  'register/checkEmail',
  'register/resendRegMail',
  'wechat/checkBind',
  'wechat/checkStat',
  'smsCode/check',
  'smsCodeCheck',
] as const;

/** Any other failing status without a toast. */
export const SILENT_OTHER = ['userTrack'] as const;

export const SUCCESS_TOAST_SECONDS = 2;
/** A toast that offers to undo a change stays long enough to reach its button. */
export const UNDO_TOAST_SECONDS = 8;
export const ERROR_TOAST_SECONDS = 5;
export const REQUEST_TIMEOUT_MS = 300_000;

export function matchesAny(url: string, fragments: readonly string[]): boolean {
  return fragments.some((fragment) => url.includes(fragment));
}
