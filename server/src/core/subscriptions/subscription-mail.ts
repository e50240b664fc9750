import type { Lang } from '@herald/shared';
import { escapeHtml } from '../unsubscribe/unsubscribe-page.html.ts';

/**
 * The confirmation mail's body, in the visitor's language (the subject is the customer's). The
 * link carries `data-no-track` so click tracking leaves it alone: the subscriber goes straight to
 * Herald's confirmation page, and the token does not pass through a redirect.
 */
const TEXTS = {
  prompt: {
    'zh-cn': '您刚刚在「{name}」提交了订阅申请。请点击下面的按钮确认订阅：',
    en: 'You asked to subscribe to "{name}". Please confirm your subscription:',
  },
  button: { 'zh-cn': '确认订阅', en: 'Confirm subscription' },
  note: {
    'zh-cn': '链接{hours}小时内有效。如果这不是您本人的操作，请忽略此邮件，您不会被订阅。',
    en: 'The link is valid for {hours} hours. If you did not ask for this, ignore this mail: you will not be subscribed.',
  },
} satisfies Record<string, Record<Lang, string>>;

export function confirmationMailHtml(view: {
  lang: Lang;
  name: string;
  logoUrl: string;
  themeColor: string;
  link: string;
  hours: number;
}): string {
  const text = (key: keyof typeof TEXTS) =>
    escapeHtml(TEXTS[key][view.lang].replace('{name}', view.name).replace('{hours}', String(view.hours)));
  return [
    '<div style="font-family:sans-serif;max-width:560px;margin:0 auto;padding:24px;color:#333">',
    `<p><img src="${escapeHtml(view.logoUrl)}" alt="" style="max-height:48px"></p>`,
    `<p>${text('prompt')}</p>`,
    `<p><a data-no-track href="${escapeHtml(view.link)}" style="display:inline-block;padding:10px 20px;border-radius:4px;color:#fff;text-decoration:none;background:${escapeHtml(view.themeColor)}">${text('button')}</a></p>`,
    `<p style="word-break:break-all;font-size:12px;color:#888">${escapeHtml(view.link)}</p>`,
    `<p style="font-size:12px;color:#888">${text('note')}</p>`,
    '</div>',
  ].join('\n');
}
