/**
 * Business limits (product-spec §9) that the server enforces and the console shows, kept in one
 * place so the two cannot disagree.
 */

/** Teammates an account may have besides its owner (product-spec §6 "Teammate count has a maximum"). */
export const MEMBER_MAX = 20;

/**
 * Days an activation link stays valid: the token's lifetime, the activation mail and the page that
 * says where the mail went all read this one number.
 */
export const ACTIVATION_VALID_DAYS = 3;

/** Temporary quota increases an operator may grant one account per Asia/Shanghai month (product-spec §9). */
export const QUOTA_RAISES_PER_MONTH = 2;
/** Quota days a temporary increase lasts: the day of the grant and the next (product-spec §4). */
export const QUOTA_RAISE_DAYS = 2;
/** Bounds an operator may set: an account's own daily quota, and a temporary increase per day. */
export const DAILY_QUOTA_MAX = 10_000_000;
export const QUOTA_RAISE_MAX = 1_000_000;
