/**
 * Permission codes (console-spec §6). One catalogue read by the server's route guard, the
 * console's route table, its menu and its buttons. `PUBLIC` marks a route anyone may call and
 * `AUTHENTICATED` one that needs a login but no code (account info, security).
 */
export const PERMISSIONS = {
  TEAMMATES: 2,
  AUTHENTICATE: 3,
  FINANCE: 4,
  TRADE: 5,
  BILL: 6,
  MESSAGE_CENTRE: 7,
  BACKEND: 9,
  EMAIL_DATA: 10,
  EMAIL_RESPONSE: 11,
  EMAIL_SEND: 12,
  EMAIL_SETTINGS: 13,
  S_PLUS: 14,
  SMS_DATA: 16,
  SMS_RESPONSE: 17,
  SMS_SEND: 18,
  SMS_SETTINGS: 19,
  DASHBOARD: 20,
} as const;

export type PermissionCode = (typeof PERMISSIONS)[keyof typeof PERMISSIONS];
export const PUBLIC = 'public' as const;
export const AUTHENTICATED = 'authenticated' as const;
/**
 * A SendCloud-compatible `/apiv2` call: the caller is an API_USER proving itself with apiUser and
 * apiKey in the request, checked by the /apiv2 adapter rather than by the console's session guard.
 */
export const API_CREDENTIALS = 'apiCredentials' as const;
/**
 * Platform operators: users of the platform's own account (accounts.kind = 'platform'), who
 * review customers' templates in the /admin area. Customers are refused with 403.
 */
export const PLATFORM_OPERATOR = 'platformOperator' as const;
export type RouteAccess =
  | PermissionCode
  | typeof PUBLIC
  | typeof AUTHENTICATED
  | typeof API_CREDENTIALS
  | typeof PLATFORM_OPERATOR;

export const ALL_PERMISSION_CODES: readonly PermissionCode[] = Object.values(PERMISSIONS);
