import { DEFAULT_UNSUBSCRIBE_PAGE, type UnsubscribePageDesign, type UnsubscribeReason } from '@herald/shared';

/**
 * The HTML a recipient sees at an unsubscribe link, built on the server from the account's design
 * (or the built-in one): no scripts, no console bundle, no assets but the designer's logo URL, so
 * it loads anywhere and the console's previews (iframe sandbox="" srcdoc) show exactly this. Every
 * value from the design or the address is escaped. Texts live here, not in the console's locales,
 * because the recipient's page is not the console.
 */
type Lang = 'zh-cn' | 'en';
type Text = Record<Lang, string>;

const TEXTS = {
  title: { 'zh-cn': '退订邮件', en: 'Unsubscribe' },
  prompt: {
    'zh-cn': '确定要退订吗？退订后 {email} 将不再收到此类邮件。',
    en: 'Do you want to unsubscribe? {email} will no longer receive these emails.',
  },
  reasons: { 'zh-cn': '退订原因（可选）', en: 'Tell us why (optional)' },
  confirm: { 'zh-cn': '确认退订', en: 'Unsubscribe' },
  cancel: { 'zh-cn': '取消', en: 'Cancel' },
  doneTitle: { 'zh-cn': '退订成功', en: 'You have been unsubscribed' },
  done: {
    'zh-cn': '{email} 已退订，将不再收到此类邮件。',
    en: '{email} will no longer receive these emails.',
  },
  cancelledTitle: { 'zh-cn': '已取消退订', en: 'Unsubscribe cancelled' },
  cancelled: { 'zh-cn': '您将继续收到我们的邮件。', en: 'You will keep receiving our emails.' },
  notFoundTitle: { 'zh-cn': '链接无效', en: 'Link not found' },
  notFound: {
    'zh-cn': '您访问的退订链接不存在或已失效。',
    en: 'The unsubscribe link you visited cannot be found or is no longer valid.',
  },
} satisfies Record<string, Text>;

export const REASON_TEXTS: Record<UnsubscribeReason, Text> = {
  not_wanted: { 'zh-cn': '我不想再收到此类邮件', en: 'I no longer want to receive these emails' },
  not_subscribed: { 'zh-cn': '我从未订阅过', en: 'I never subscribed' },
  spam: { 'zh-cn': '这些邮件是垃圾邮件', en: 'These emails are spam' },
  fraud: { 'zh-cn': '这些邮件涉嫌欺诈', en: 'These emails look fraudulent' },
};

export type UnsubscribeView =
  | { kind: 'form'; design: UnsubscribePageDesign; email: string; action: string; cancelHref: string }
  | { kind: 'done'; design: UnsubscribePageDesign; email: string }
  | { kind: 'cancelled'; design: UnsubscribePageDesign }
  | { kind: 'notFound' };

export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

export function renderUnsubscribePage(view: UnsubscribeView): string {
  // A bad link names no account, so its page is the built-in one, in both languages.
  const d = view.kind === 'notFound' ? DEFAULT_UNSUBSCRIBE_PAGE : view.design;
  const langs: Lang[] = d.language === 'both' ? ['zh-cn', 'en'] : [d.language];
  /** A text in the page's language(s), `{email}` filled in; both languages go on two lines. */
  const say = (text: Text, email = '') =>
    langs
      .map(
        (l) =>
          `<span lang="${l}">${escapeHtml(text[l]).replace('{email}', `<b>${escapeHtml(email)}</b>`)}</span>`,
      )
      .join('<br>');
  const inline = (text: Text) => langs.map((l) => escapeHtml(text[l])).join(' / ');

  let body: string;
  if (view.kind === 'form') {
    const reasons = view.design.reasons
      .map(
        (r) =>
          `<label class="reason"><input type="radio" name="reason" value="${r}"> ${say(REASON_TEXTS[r])}</label>`,
      )
      .join('\n');
    body = `<h1>${say(TEXTS.title)}</h1>
<p>${say(TEXTS.prompt, view.email)}</p>
<form method="post" action="${escapeHtml(view.action)}">
<fieldset><legend>${say(TEXTS.reasons)}</legend>
${reasons}
</fieldset>
<div class="actions"><button type="submit" class="confirm">${inline(TEXTS.confirm)}</button>
<a class="cancel" href="${escapeHtml(view.cancelHref)}">${inline(TEXTS.cancel)}</a></div>
</form>`;
  } else if (view.kind === 'done') {
    body = `<h1>${say(TEXTS.doneTitle)}</h1>\n<p>${say(TEXTS.done, view.email)}</p>`;
  } else if (view.kind === 'cancelled') {
    body = `<h1>${say(TEXTS.cancelledTitle)}</h1>\n<p>${say(TEXTS.cancelled)}</p>`;
  } else {
    body = `<h1>${say(TEXTS.notFoundTitle)}</h1>\n<p>${say(TEXTS.notFound)}</p>`;
  }
  const logo = d.logoUrl ? `<img class="logo" src="${escapeHtml(d.logoUrl)}" alt="">\n` : '';
  // Colours passed the shared schema (#rgb / #rrggbb), so they are safe inside the style sheet.
  return `<!doctype html>
<html lang="${langs[0]}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="referrer" content="no-referrer">
<title>${inline(view.kind === 'done' ? TEXTS.doneTitle : TEXTS.title)}</title>
<style>
body{margin:0;min-height:100vh;background:${d.pageBackground};color:${d.textColor};font:15px/1.6 -apple-system,"Segoe UI","PingFang SC","Microsoft YaHei",sans-serif;display:flex;align-items:flex-start;justify-content:center}
main{background:${d.formBackground};margin:48px 16px;padding:32px;max-width:520px;width:100%;border-radius:8px;box-shadow:0 2px 12px rgba(0,0,0,.08)}
.logo{display:block;max-height:56px;max-width:100%;margin-bottom:16px}
h1{font-size:22px;margin:0 0 12px}
fieldset{border:0;padding:0;margin:16px 0}
legend{margin-bottom:8px;font-weight:600}
.reason{display:block;margin:6px 0;cursor:pointer}
.actions{display:flex;gap:12px;margin-top:24px;flex-wrap:wrap}
.confirm,.cancel{font:inherit;padding:8px 20px;border-radius:6px;border:1px solid rgba(0,0,0,.15);cursor:pointer;text-decoration:none}
.confirm{background:${d.confirmBackground};color:${d.confirmTextColor}}
.cancel{background:${d.cancelBackground};color:${d.cancelTextColor}}
</style>
</head>
<body>
<main>
${logo}${body}
</main>
</body>
</html>
`;
}
