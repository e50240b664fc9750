import type { Lang, PublicSubscriptionView } from '@herald/shared';

/**
 * The snippet's script (`<script src=".../subscribe/embed.js?id=…" async></script>`), built per
 * subscription so it needs no second request: it shows the page /subscriptionInvite of the host
 * that served it, in the subscription's display mode, where the tag stands (embedded, or the link
 * for a new tab) or over the customer's page (pop-up, bottom and top bars). A deleted
 * subscription's script says it is no longer available. Everything the script holds comes from
 * JSON.stringify, so nothing from the subscription can break out of it. Texts are in the
 * visitor's language.
 */
const TEXTS = {
  subscribe: { 'zh-cn': '订阅我们的邮件', en: 'Subscribe to our emails' },
  close: { 'zh-cn': '关闭', en: 'Close' },
  unavailable: { 'zh-cn': '该订阅已停用', en: 'This subscription is no longer available' },
} satisfies Record<string, Record<Lang, string>>;

export function embedScript(publicId: string, view: PublicSubscriptionView | null, lang: Lang): string {
  const config = {
    id: publicId,
    lang,
    available: view?.available === true,
    mode: view?.displayMode ?? 'embedded',
    colour: view?.themeColor ?? '#1677ff',
    name: view?.name ?? '',
    subscribe: TEXTS.subscribe[lang],
    close: TEXTS.close[lang],
    unavailable: TEXTS.unavailable[lang],
  };
  return `(function () {
  var c = ${JSON.stringify(config).replace(/</g, '\\u003c')};
  var tag = document.currentScript;
  var base = tag && tag.src ? new URL(tag.src).origin : '';
  var url = base + '/subscriptionInvite?id=' + encodeURIComponent(c.id) + '&mode=' + c.mode + '&lang=' + c.lang;
  function el(name, css, attrs) {
    var e = document.createElement(name);
    if (css) e.style.cssText = css;
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    return e;
  }
  function frame(css) {
    return el('iframe', 'border:0;display:block;' + css, { src: url, title: c.name, class: 'herald-subscription-frame' });
  }
  function here(node) {
    if (tag && tag.parentNode) tag.parentNode.insertBefore(node, tag);
    else document.body.appendChild(node);
  }
  function closer(target) {
    var b = el('button', 'position:absolute;top:4px;right:8px;border:0;background:transparent;font-size:20px;cursor:pointer;color:#666', { type: 'button', 'aria-label': c.close, class: 'herald-subscription-close' });
    b.textContent = '\\u00d7';
    b.onclick = function () { target.remove(); };
    return b;
  }
  function show() {
    if (!c.available) {
      var p = el('p', '', { class: 'herald-subscription-unavailable' });
      p.textContent = c.unavailable;
      here(p);
      return;
    }
    if (c.mode === 'newTab') {
      var a = el('a', 'display:inline-block;padding:8px 16px;border-radius:4px;color:#fff;text-decoration:none;background:' + c.colour, { href: url, target: '_blank', rel: 'noopener', class: 'herald-subscription-link' });
      a.textContent = c.subscribe;
      here(a);
    } else if (c.mode === 'embedded') {
      here(frame('width:100%;max-width:480px;height:460px'));
    } else if (c.mode === 'popup') {
      var open = el('button', 'padding:8px 16px;border:0;border-radius:4px;color:#fff;cursor:pointer;background:' + c.colour, { type: 'button', class: 'herald-subscription-open' });
      open.textContent = c.subscribe;
      open.onclick = function () {
        var overlay = el('div', 'position:fixed;inset:0;z-index:2147483646;background:rgba(0,0,0,.45);display:flex;align-items:center;justify-content:center', { class: 'herald-subscription-popup' });
        var box = el('div', 'position:relative;background:#fff;border-radius:8px;width:min(480px,92vw);padding-top:28px');
        box.appendChild(closer(overlay));
        box.appendChild(frame('width:100%;height:460px'));
        overlay.appendChild(box);
        overlay.onclick = function (e) { if (e.target === overlay) overlay.remove(); };
        document.body.appendChild(overlay);
      };
      here(open);
    } else {
      var edge = c.mode === 'topBar' ? 'top:0' : 'bottom:0';
      var bar = el('div', 'position:fixed;left:0;right:0;' + edge + ';z-index:2147483646;background:#fff;box-shadow:0 0 8px rgba(0,0,0,.2);border-' + (c.mode === 'topBar' ? 'bottom' : 'top') + ':3px solid ' + c.colour, { class: 'herald-subscription-bar' });
      bar.appendChild(frame('width:100%;height:96px'));
      bar.appendChild(closer(bar));
      document.body.appendChild(bar);
    }
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', show);
  else show();
})();
`;
}
