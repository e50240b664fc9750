// biome-ignore-all lint: ES3 on purpose, for the browsers this warns; no arrows, no optional chaining
/*
 * The old-browser banner (console-spec §1): plain ES3 so that the browsers it warns (IE 8,
 * Chrome 23, Firefox 28, Safari 6 and older), which cannot run the console's bundle, still show
 * it. A file of its own, not an inline script, so the Content-Security-Policy needs no exception;
 * vite.config.ts writes its texts in from each locale's common.json and serves it as
 * /browser-tip.js.
 */
(function () {
  var texts = __HERALD_BROWSER_TIP__;
  var ua = navigator.userAgent;
  var rules = [
    [/MSIE (\d+)/, 8],
    [/(?:Chrome|CriOS)\/(\d+)/, 23],
    [/Firefox\/(\d+)/, 28],
    [/Version\/(\d+)[^ ]* (?:Mobile\/\S+ )?Safari\//, 6],
  ];
  var old = false;
  for (var i = 0; i < rules.length; i++) {
    var match = rules[i][0].exec(ua);
    if (match) {
      old = +match[1] <= rules[i][1];
      break;
    }
  }
  if (!old) return;
  var store = null;
  try {
    store = window.localStorage;
    if (store.getItem('browserTipDismissed') === '1') return;
  } catch (_ignored) {}
  var fromUrl = /[?&]lang=([^&]*)/.exec(location.search);
  var lang = fromUrl ? fromUrl[1] : store ? store.getItem('lang') : '';
  var text = /^en/i.test(lang || '') ? texts.en : texts['zh-cn'];
  var bar = document.createElement('div');
  bar.id = 'browser-tip';
  bar.setAttribute('role', 'alert');
  bar.style.cssText =
    'position:relative;z-index:2000;padding:10px 16px;background:#fffbe6;border-bottom:1px solid #ffe58f;color:#614700;font:14px/1.6 sans-serif;text-align:center';
  bar.appendChild(document.createTextNode(text.message + ' '));
  var close = document.createElement('button');
  close.type = 'button';
  close.id = 'browser-tip-dismiss';
  close.style.cssText =
    'margin-left:8px;padding:2px 10px;border:1px solid #d4b106;border-radius:4px;background:#fff;color:#614700;cursor:pointer';
  close.appendChild(document.createTextNode(text.dismiss));
  close.onclick = function () {
    try {
      if (store) store.setItem('browserTipDismissed', '1');
    } catch (_ignored) {}
    bar.parentNode.removeChild(bar);
  };
  bar.appendChild(close);
  document.body.insertBefore(bar, document.body.firstChild);
})();
