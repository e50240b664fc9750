import { escapeHtml } from '../unsubscribe/unsubscribe-page.html.ts';

/**
 * The page a confirmation link lands on, in both languages (the link is opened from a mailbox,
 * wherever the visitor is): built on the server with no script, like the unsubscribe page.
 */
export type ConfirmPageView =
  | { kind: 'confirmed'; name: string; logoUrl: string; themeColor: string; email: string }
  | { kind: 'invalid' }
  | { kind: 'unavailable' }
  | { kind: 'failed' };

const TEXTS: Record<ConfirmPageView['kind'], { title: [string, string]; body: [string, string] }> = {
  confirmed: {
    title: ['订阅成功', 'Subscription confirmed'],
    body: ['{email} 已成功订阅「{name}」。', '{email} is now subscribed to "{name}".'],
  },
  invalid: {
    title: ['链接无效', 'Link not valid'],
    body: [
      '确认链接无效或已过期，请重新订阅。',
      'The confirmation link is invalid or has expired, please subscribe again.',
    ],
  },
  unavailable: {
    title: ['订阅已停用', 'Subscription unavailable'],
    body: ['该订阅已停用。', 'This subscription is no longer available.'],
  },
  failed: {
    title: ['订阅失败', 'Subscription failed'],
    body: ['订阅失败，请稍后再试。', 'Subscription failed, please try again later.'],
  },
};

export function renderConfirmPage(view: ConfirmPageView): string {
  const { title, body } = TEXTS[view.kind];
  const fill = (s: string) =>
    escapeHtml(view.kind === 'confirmed' ? s.replace('{email}', view.email).replace('{name}', view.name) : s);
  const colour = view.kind === 'confirmed' ? view.themeColor : '#1677ff';
  const logo =
    view.kind === 'confirmed' ? `<img src="${escapeHtml(view.logoUrl)}" alt="" style="max-height:56px">` : '';
  return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title.join(' / '))}</title></head>
<body style="margin:0;font-family:sans-serif;background:#f5f6f8;color:#333">
<main class="subscription-confirm subscription-confirm-${view.kind}" style="max-width:520px;margin:64px auto;background:#fff;border-top:4px solid ${escapeHtml(colour)};border-radius:6px;padding:32px;text-align:center">
${logo}
<h1 style="font-size:22px">${escapeHtml(title[0])}</h1><p>${fill(body[0])}</p>
<h1 lang="en" style="font-size:22px">${escapeHtml(title[1])}</h1><p lang="en">${fill(body[1])}</p>
</main></body></html>`;
}
