/**
 * Business limits (product-spec §9) that the server enforces and the console shows, kept in one
 * place so the two cannot disagree.
 */

/** Teammates an account may have besides its owner (product-spec §6 "Teammate count has a maximum"). */
export const MEMBER_MAX = 20;
