import { ERRORS, LANGS, type Lang } from '@herald/shared';
import type { GuideSampleId } from '@herald/shared/samples/guide-samples';
import { SAMPLE_LANGUAGES, type SampleLanguage } from '@herald/shared/samples/send-samples';
import { GUIDE_TOPICS, GUIDES, type GuideBlock, type GuideTopicSlug } from './guides-content.ts';

/**
 * Server-rendered HTML of the guides: an index and one page per topic, in either language.
 * Samples are `<pre data-sample data-lang>` blocks behind radio-button tabs that CSS alone
 * switches (guides.css); guides.js only adds copy buttons, so the page works without script and
 * holds under Herald's CSP (no inline script, no inline handler).
 */
type Samples = Record<GuideSampleId, Record<SampleLanguage, string>>;

const TEXT: Record<
  Lang,
  {
    title: string;
    language: string;
    reference: string;
    index: string;
    copy: string;
    copied: string;
    errorHead: [string, string, string];
  }
> = {
  'zh-cn': {
    title: 'Herald 开发指南',
    language: '语言',
    reference: 'API 参考',
    index: '全部指南',
    copy: '复制',
    copied: '已复制',
    errorHead: ['statusCode', '含义', 'Herald 错误码'],
  },
  en: {
    title: 'Herald guides',
    language: 'Language',
    reference: 'API reference',
    index: 'All guides',
    copy: 'Copy',
    copied: 'Copied',
    errorHead: ['statusCode', 'Meaning', 'Herald error code'],
  },
};
const LANG_NAMES: Record<Lang, string> = { 'zh-cn': '中文', en: 'English' };
const SAMPLE_NAMES: Record<SampleLanguage, string> = {
  curl: 'curl',
  node: 'Node.js',
  python: 'Python',
  java: 'Java',
  php: 'PHP',
  go: 'Go',
};

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Plain prose with `code` spans. */
const prose = (text: string) =>
  escapeHtml(text).replace(/`([^`]+)`/g, (_match, code: string) => `<code>${code}</code>`);

export function indexPage(lang: Lang): string {
  const items = GUIDE_TOPICS.map((slug) => {
    const topic = GUIDES[slug];
    return `<li><a href="${slug}?lang=${lang}">${escapeHtml(topic.title[lang])}</a><p>${prose(topic.summary[lang])}</p></li>`;
  }).join('\n');
  return layout(
    lang,
    TEXT[lang].title,
    '',
    `<h1>${TEXT[lang].title}</h1>\n<ul class="guide-index">\n${items}\n</ul>`,
  );
}

export function topicPage(lang: Lang, slug: GuideTopicSlug, samples: Samples): string {
  const topic = GUIDES[slug];
  const body = topic.body[lang].map((block) => renderBlock(block, lang, samples)).join('\n');
  return layout(
    lang,
    `${topic.title[lang]} · ${TEXT[lang].title}`,
    slug,
    `<h1>${escapeHtml(topic.title[lang])}</h1>\n${body}`,
  );
}

function renderBlock(block: GuideBlock, lang: Lang, samples: Samples): string {
  if ('h' in block) return `<h2>${escapeHtml(block.h)}</h2>`;
  if ('p' in block) return `<p>${prose(block.p)}</p>`;
  if ('sample' in block) return sampleBlock(block.sample, samples[block.sample], lang);
  return errorTable(lang);
}

function sampleBlock(id: GuideSampleId, sample: Record<SampleLanguage, string>, lang: Lang): string {
  const group = `sample-${id}`;
  const tabs = SAMPLE_LANGUAGES.map(
    (language, i) =>
      `<input type="radio" name="${group}" id="${group}-${language}" value="${language}"${i === 0 ? ' checked' : ''}>` +
      `<label for="${group}-${language}">${SAMPLE_NAMES[language]}</label>`,
  ).join('');
  const blocks = SAMPLE_LANGUAGES.map(
    (language) =>
      `<pre data-sample="${id}" data-lang="${language}"><code>${escapeHtml(sample[language])}</code></pre>`,
  ).join('\n');
  return `<div class="sample" data-copy="${TEXT[lang].copy}" data-copied="${TEXT[lang].copied}">${tabs}\n${blocks}\n</div>`;
}

/** Every SendCloud statusCode the catalogue answers with, and Herald's codes behind it. */
function errorTable(lang: Lang): string {
  const byStatus = new Map<number, { code: string; message: string }[]>();
  for (const [code, definition] of Object.entries(ERRORS)) {
    if (!('sendCloud' in definition) || definition.sendCloud === undefined) continue;
    const rows = byStatus.get(definition.sendCloud) ?? [];
    rows.push({ code, message: definition[lang].replace(/\{(\w+)\}/g, '…') });
    byStatus.set(definition.sendCloud, rows);
  }
  const head = TEXT[lang].errorHead.map((h) => `<th>${h}</th>`).join('');
  const rows = [...byStatus.entries()]
    .sort(([a], [b]) => a - b)
    .flatMap(([status, entries]) =>
      entries.map(
        (entry) =>
          `<tr data-status="${status}"><td>${status}</td><td>${escapeHtml(entry.message)}</td><td><code>${entry.code}</code></td></tr>`,
      ),
    )
    .join('\n');
  return `<table class="error-codes"><thead><tr>${head}</tr></thead>\n<tbody>\n${rows}\n</tbody></table>`;
}

function layout(lang: Lang, title: string, current: string, main: string): string {
  const text = TEXT[lang];
  const switcher = LANGS.map(
    (l) =>
      `<a href="?lang=${l}" hreflang="${l}"${l === lang ? ' aria-current="page"' : ''}>${LANG_NAMES[l]}</a>`,
  ).join('');
  const nav = GUIDE_TOPICS.map(
    (slug) =>
      `<li><a href="${slug}?lang=${lang}"${slug === current ? ' aria-current="page"' : ''}>${escapeHtml(GUIDES[slug].title[lang])}</a></li>`,
  ).join('');
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="guides.css">
<script src="guides.js" defer></script>
</head>
<body>
<header class="guides-bar"><a class="guides-home" href="./?lang=${lang}">${text.title}</a><nav aria-label="${text.language}"><a href="/docs/api/?lang=${lang}">${text.reference}</a>${switcher}</nav></header>
<div class="guides-layout">
<nav class="guides-nav" aria-label="${text.index}"><ul>${nav}</ul></nav>
<main>
${main}
</main>
</div>
</body>
</html>
`;
}
