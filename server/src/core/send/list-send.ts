/**
 * A list send's request, as SendService.prepareListSend checked it and the list task keeps it
 * (mail_list_tasks.request, JSON): everything of the message but its recipients. Each chunk the
 * task writes becomes one individual message with these values (SendService.acceptListChunk).
 */
export interface ListSendRequest {
  apiUserId: number;
  emailType: 'trigger' | 'batch';
  cType: 'normal' | 'test';
  fromAddress: string;
  fromName: string | null;
  replyTo: string | null;
  subject: string;
  contentSummary: string | null;
  labelId: number | null;
  templateId: number | null;
  headers: string | null;
  useNotification: boolean;
  html: string | null;
  plain: string | null;
}

/**
 * A member's variables as the renderer takes a recipient's (xsmtpapi `sub`, `%name%` keys): its
 * own variables, and its name as `%name%` unless it has a variable of that name.
 */
export function memberVars(name: string, vars: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  if (name) out['%name%'] = name;
  for (const [key, value] of Object.entries(vars)) out[`%${key}%`] = value;
  return out;
}
