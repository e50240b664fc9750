import { ALL_PERMISSION_CODES, PERMISSIONS, type PermissionCode } from './permissions.ts';

/**
 * What a teammate may do (product-spec §6). The functions a custom teammate is given levels on
 * are the permission codes of console-spec §6; each is held at `full` (view and change), `read`
 * (view only: no change, no download) or not at all. An administrator holds every code at full, a
 * visitor every code at read. The quick presets fill the custom editor and, picked together,
 * combine by taking the higher level per code. The server's guard, the member menu and the
 * console's editor all read these tables.
 */
export const MEMBER_TYPES = ['administrator', 'visitor', 'custom'] as const;
export type MemberType = (typeof MEMBER_TYPES)[number];

export const PERMISSION_LEVELS = ['full', 'read'] as const;
export type PermissionLevel = (typeof PERMISSION_LEVELS)[number];
/** A custom teammate's levels; a code that is absent is not held ("none" in the editor). */
export type PermissionLevels = Partial<Record<PermissionCode, PermissionLevel>>;

export const MEMBER_PRESETS = ['developer', 'operation', 'finance'] as const;
export type MemberPreset = (typeof MEMBER_PRESETS)[number];

/** Codes only the owner and administrators may change: a custom teammate holds them at most at read. */
export const ADMIN_ONLY_CODES: readonly PermissionCode[] = [PERMISSIONS.TEAMMATES];

const P = PERMISSIONS;

/**
 * The presets as data. Every preset views the console home and dashboards (9, 20) without
 * changing them, and none touches teammates (2).
 * - developer integrates the API and SMTP: full on email and SMS send-related (12, 18) and
 *   settings (13, 19: domains, API_USER, webhooks); reads the data and responses it debugs with
 *   (10, 11, 16, 17).
 * - operation runs the sending: full on data, responses and send-related of both channels
 *   (10, 11, 12, 16, 17, 18) and the message centre (7); reads the settings (13, 19).
 * - finance pays: full on finance, trade, bill and S+ purchases (4, 5, 6, 14); reads the
 *   certification (3) its invoices depend on and the message centre (7).
 */
export const PRESET_LEVELS: Readonly<Record<MemberPreset, PermissionLevels>> = {
  developer: {
    [P.BACKEND]: 'read',
    [P.DASHBOARD]: 'read',
    [P.EMAIL_SEND]: 'full',
    [P.EMAIL_SETTINGS]: 'full',
    [P.SMS_SEND]: 'full',
    [P.SMS_SETTINGS]: 'full',
    [P.EMAIL_DATA]: 'read',
    [P.EMAIL_RESPONSE]: 'read',
    [P.SMS_DATA]: 'read',
    [P.SMS_RESPONSE]: 'read',
  },
  operation: {
    [P.BACKEND]: 'read',
    [P.DASHBOARD]: 'read',
    [P.EMAIL_DATA]: 'full',
    [P.EMAIL_RESPONSE]: 'full',
    [P.EMAIL_SEND]: 'full',
    [P.SMS_DATA]: 'full',
    [P.SMS_RESPONSE]: 'full',
    [P.SMS_SEND]: 'full',
    [P.MESSAGE_CENTRE]: 'full',
    [P.EMAIL_SETTINGS]: 'read',
    [P.SMS_SETTINGS]: 'read',
  },
  finance: {
    [P.BACKEND]: 'read',
    [P.DASHBOARD]: 'read',
    [P.FINANCE]: 'full',
    [P.TRADE]: 'full',
    [P.BILL]: 'full',
    [P.S_PLUS]: 'full',
    [P.AUTHENTICATE]: 'read',
    [P.MESSAGE_CENTRE]: 'read',
  },
};

/** One entry of the permission editor's catalogue: the menu id is the code (console-spec §3). */
export interface PermissionCatalogueEntry {
  id: PermissionCode;
  code: PermissionCode;
  /** i18n key of the function's name, e.g. `members.permission.emailData`. */
  nameKey: string;
  group: 'account' | 'console' | 'email' | 'sms';
  /** Custom teammates may hold it at most at read. */
  adminOnly: boolean;
}

const GROUPS: Record<PermissionCode, PermissionCatalogueEntry['group']> = {
  [P.TEAMMATES]: 'account',
  [P.AUTHENTICATE]: 'account',
  [P.FINANCE]: 'account',
  [P.TRADE]: 'account',
  [P.BILL]: 'account',
  [P.MESSAGE_CENTRE]: 'account',
  [P.BACKEND]: 'console',
  [P.DASHBOARD]: 'console',
  [P.S_PLUS]: 'console',
  [P.EMAIL_DATA]: 'email',
  [P.EMAIL_RESPONSE]: 'email',
  [P.EMAIL_SEND]: 'email',
  [P.EMAIL_SETTINGS]: 'email',
  [P.SMS_DATA]: 'sms',
  [P.SMS_RESPONSE]: 'sms',
  [P.SMS_SEND]: 'sms',
  [P.SMS_SETTINGS]: 'sms',
};

const camel = (name: string) => name.toLowerCase().replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/** Every function in code order, for `GET /user/member/permissions/all`. */
export const PERMISSION_CATALOGUE: readonly PermissionCatalogueEntry[] = Object.entries(PERMISSIONS)
  .map(([name, code]) => ({
    id: code,
    code,
    nameKey: `members.permission.${camel(name)}`,
    group: GROUPS[code],
    adminOnly: ADMIN_ONLY_CODES.includes(code),
  }))
  .sort((a, b) => a.code - b.code);

export function isPermissionCode(value: number): value is PermissionCode {
  return (ALL_PERMISSION_CODES as readonly number[]).includes(value);
}

/** The levels of the given presets together: the higher level wins per code. */
export function presetLevels(presets: readonly MemberPreset[]): PermissionLevels {
  const levels: PermissionLevels = {};
  for (const preset of presets) {
    for (const [key, level] of Object.entries(PRESET_LEVELS[preset])) {
      const code = Number(key) as PermissionCode;
      if (levels[code] !== 'full') levels[code] = level;
    }
  }
  return levels;
}

/**
 * The level of every code a teammate holds, in code order. Custom levels on unknown codes are
 * ignored and admin-only codes are capped at read, whatever was stored.
 */
export function effectiveLevels(
  type: MemberType,
  custom: PermissionLevels = {},
): Map<PermissionCode, PermissionLevel> {
  const levels = new Map<PermissionCode, PermissionLevel>();
  for (const code of ALL_PERMISSION_CODES) {
    const level = type === 'administrator' ? 'full' : type === 'visitor' ? 'read' : custom[code];
    if (!level) continue;
    levels.set(
      code,
      level === 'full' && type === 'custom' && ADMIN_ONLY_CODES.includes(code) ? 'read' : level,
    );
  }
  return levels;
}
