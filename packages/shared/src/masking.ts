/**
 * How contact details are shown back to their owner (product-spec §9): a phone keeps its first
 * 3 characters, an email the first two of its local part and its domain. Enough to recognise,
 * not enough to harvest from a screen or a pending-login page.
 */
export function maskPhone(phone: string): string {
  const visible = phone.slice(0, 3);
  return visible + '*'.repeat(Math.max(phone.length - visible.length, 4));
}

export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 0) return maskPhone(email);
  const local = email.slice(0, at);
  const shown = local.length > 2 ? local.slice(0, 2) : local.slice(0, 1);
  return `${shown}***${email.slice(at)}`;
}
