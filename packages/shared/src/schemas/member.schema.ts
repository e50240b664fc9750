import { z } from 'zod';
import {
  ADMIN_ONLY_CODES,
  isPermissionCode,
  MEMBER_PRESETS,
  MEMBER_TYPES,
  type MemberPreset,
  type MemberType,
  type PermissionLevels,
  presetLevels,
} from '../member-presets.ts';
import type { ValidationKey } from '../validation.ts';
import { emailSchema, passwordSchema, userNameSchema } from './account.schema.ts';

/**
 * Teammate forms (console-spec §7 "Members"): invite, update, and the invitee's accept screen.
 * Bodies are JSON from the console; a form-encoded post may carry `roles` as a comma list and
 * `levels` as a JSON string. A custom teammate's levels come from `levels` when given, otherwise
 * from the quick presets in `roles`; administrators and visitors carry no levels of their own.
 */
const rule = (key: ValidationKey) => ({ message: key });

export const MEMBER_NAME_MAX = 32;

/** What the access fields resolve to, ready for the core. */
export interface MemberAccessInput {
  type: MemberType;
  roles: MemberPreset[];
  levels: PermissionLevels;
}

const optionalName = z
  .string()
  .trim()
  .max(MEMBER_NAME_MAX, rule('lengthExceeded'))
  .optional()
  .transform((v) => v || undefined);

const memberTypeSchema = z.enum(MEMBER_TYPES, rule('memberType'));

const rolesSchema = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(',').filter(Boolean) : v),
  z.array(z.enum(MEMBER_PRESETS, rule('memberPreset')), rule('memberPreset')),
);

const levelsSchema = z
  .preprocess(
    (v) => {
      if (typeof v !== 'string') return v;
      try {
        return JSON.parse(v) as unknown;
      } catch {
        return v;
      }
    },
    z.record(z.string(), z.enum(['full', 'read', 'none'], rule('memberLevel')), rule('memberLevel')),
  )
  .superRefine((levels, ctx) => {
    for (const key of Object.keys(levels)) {
      if (!isPermissionCode(Number(key)))
        ctx.addIssue({ code: 'custom', ...rule('memberFunctionUnknown'), path: [key] });
    }
  })
  .transform((levels) => {
    const held: PermissionLevels = {};
    for (const [key, level] of Object.entries(levels)) {
      const code = Number(key);
      if (isPermissionCode(code) && level !== 'none') held[code] = level;
    }
    return held;
  });

export function resolveMemberAccess(v: {
  type: MemberType;
  roles?: MemberPreset[] | undefined;
  levels?: PermissionLevels | undefined;
}): MemberAccessInput {
  if (v.type !== 'custom') return { type: v.type, roles: [], levels: {} };
  const roles = [...new Set(v.roles ?? [])];
  return { type: 'custom', roles, levels: v.levels ?? presetLevels(roles) };
}

function checkAccess(
  v: {
    type?: MemberType | undefined;
    roles?: MemberPreset[] | undefined;
    levels?: PermissionLevels | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  if (!v.type) {
    if (v.roles || v.levels) ctx.addIssue({ code: 'custom', ...rule('memberType'), path: ['type'] });
    return;
  }
  if (v.type !== 'custom') return;
  const { levels } = resolveMemberAccess({ ...v, type: v.type });
  if (Object.keys(levels).length === 0)
    ctx.addIssue({ code: 'custom', ...rule('memberLevelsRequired'), path: ['levels'] });
  for (const code of ADMIN_ONLY_CODES) {
    if (levels[code] === 'full')
      ctx.addIssue({ code: 'custom', ...rule('memberAdminOnly'), path: ['levels', String(code)] });
  }
}

export const memberIdSchema = z.coerce.number(rule('invalid')).int(rule('invalid')).positive(rule('invalid'));

export const memberInviteSchema = z
  .object({
    email: emailSchema,
    name: optionalName,
    type: memberTypeSchema,
    roles: rolesSchema.optional(),
    levels: levelsSchema.optional(),
  })
  .superRefine(checkAccess)
  .transform((v) => ({ email: v.email, name: v.name, ...resolveMemberAccess(v) }));

export type MemberInviteInput = z.output<typeof memberInviteSchema>;

/** Name, access, or both; access is replaced as a whole (type, then presets or levels). */
export const memberUpdateSchema = z
  .object({
    userId: memberIdSchema,
    name: optionalName,
    type: memberTypeSchema.optional(),
    roles: rolesSchema.optional(),
    levels: levelsSchema.optional(),
  })
  .superRefine(checkAccess)
  .transform((v) => ({
    userId: v.userId,
    name: v.name,
    access: v.type ? resolveMemberAccess({ ...v, type: v.type }) : undefined,
  }));

export type MemberUpdateInput = z.output<typeof memberUpdateSchema>;

export const inviteTokenSchema = z
  .string(rule('required'))
  .min(1, rule('required'))
  .max(256, rule('lengthExceeded'));

/** The invitee chooses a login name and a password (the sign-up rules of product-spec §5). */
export const memberAcceptSchema = z
  .object({
    token: inviteTokenSchema,
    userName: userNameSchema,
    password: passwordSchema,
    confirmPassword: z.string(rule('required')),
  })
  .refine((v) => v.password === v.confirmPassword, {
    ...rule('passwordMismatch'),
    path: ['confirmPassword'],
  });

export type MemberAcceptInput = z.output<typeof memberAcceptSchema>;

export type MemberState = 'toActivate' | 'joined';

/** A teammate as the team screen shows it (console-spec §7 "Members"). */
export interface MemberView {
  userId: number;
  /** The name the team knows them by; null when none was given. */
  name: string | null;
  /** Their login name, once they joined. */
  userName: string | null;
  email: string;
  type: MemberType;
  roles: MemberPreset[];
  /** Every code they hold and its level, after their type is applied. */
  levels: PermissionLevels;
  state: MemberState;
  createdAt: number;
  lastLoginAt: number | null;
}

/** What the accept screen shows before the invitee chooses a name and password. */
export interface InvitationView {
  accountName: string;
  inviterName: string;
  email: string;
  name: string | null;
}
