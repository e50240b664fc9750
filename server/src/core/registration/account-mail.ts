import { ACTIVATION_VALID_DAYS, type Lang } from '@herald/shared';

/** The mails of account life (activation, password reset, invitation), in the language the user used. */
export interface SystemMail {
  subject: string;
  text: string;
  html: string;
}

/** What sends a system mail: the notifications service in Herald, a recorder in some tests. */
export interface SystemMailer {
  sendEmail(mail: { to: string; subject: string; text: string; html?: string }): Promise<unknown>;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** A system mail of paragraphs and one link, as text and HTML. */
export function systemMail(
  lang: Lang,
  subject: string,
  lines: string[],
  link: string,
  action: string,
): SystemMail {
  const text = [...lines, '', link].join('\n');
  const html = `<!doctype html><html lang="${lang}"><body style="font-family:sans-serif">${lines
    .map((l) => `<p>${escapeHtml(l)}</p>`)
    .join(
      '',
    )}<p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p><p style="color:#888">${escapeHtml(link)}</p></body></html>`;
  return { subject, text, html };
}

export function activationMail(lang: Lang, userName: string, link: string): SystemMail {
  return lang === 'en'
    ? systemMail(
        lang,
        'Activate your Herald account',
        [
          `Hello ${userName},`,
          `Thank you for signing up. Open the link below within ${ACTIVATION_VALID_DAYS} days to activate your account.`,
        ],
        link,
        'Activate my account',
      )
    : systemMail(
        lang,
        '激活您的 Herald 账号',
        [`${userName}，您好：`, `感谢注册。请在 ${ACTIVATION_VALID_DAYS} 天内打开下面的链接激活账号。`],
        link,
        '激活账号',
      );
}

export function passwordResetMail(lang: Lang, userName: string, link: string): SystemMail {
  return lang === 'en'
    ? systemMail(
        lang,
        'Reset your Herald password',
        [
          `Hello ${userName},`,
          'Someone asked to reset the password of your account. Open the link below within 1 hour to choose a new one.',
          'If it was not you, ignore this mail; your password stays as it is.',
        ],
        link,
        'Reset my password',
      )
    : systemMail(
        lang,
        '重置您的 Herald 密码',
        [
          `${userName}，您好：`,
          '有人申请重置您账号的密码。请在 1 小时内打开下面的链接设置新密码。',
          '如果不是您本人操作，请忽略本邮件，密码不会改变。',
        ],
        link,
        '重置密码',
      );
}

/** A teammate invitation (console-spec §7 "Members"); the link is valid for 7 days. */
export function inviteMail(
  lang: Lang,
  invitation: { inviterName: string; accountName: string },
  link: string,
): SystemMail {
  const { inviterName, accountName } = invitation;
  return lang === 'en'
    ? systemMail(
        lang,
        `${inviterName} invited you to the ${accountName} team on Herald`,
        [
          'Hello,',
          `${inviterName} invited you to join the team of the Herald account ${accountName}.`,
          'Open the link below within 7 days to choose your user name and password.',
        ],
        link,
        'Accept the invitation',
      )
    : systemMail(
        lang,
        `${inviterName} 邀请您加入 Herald 账号 ${accountName} 的团队`,
        [
          '您好：',
          `${inviterName} 邀请您加入 Herald 账号 ${accountName} 的团队。`,
          '请在 7 天内打开下面的链接设置用户名和密码。',
        ],
        link,
        '接受邀请',
      );
}
