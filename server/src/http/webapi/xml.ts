/**
 * The `.xml` spelling of a v1 answer: the same content as its JSON, one element per field under
 * `<result>`, list entries as `<item>`, text escaped. SendCloud's documentation describes the XML
 * answers only as "the JSON, as XML"; this is the plainest such mapping.
 */
export function toXml(body: Record<string, unknown>): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<result>${children(body)}</result>\n`;
}

function children(value: Record<string, unknown>): string {
  return Object.entries(value)
    .map(([name, v]) => element(tagName(name), v))
    .join('');
}

function element(tag: string, value: unknown): string {
  if (value === null || value === undefined) return `<${tag}/>`;
  if (Array.isArray(value)) return `<${tag}>${value.map((v) => element('item', v)).join('')}</${tag}>`;
  if (typeof value === 'object') return `<${tag}>${children(value as Record<string, unknown>)}</${tag}>`;
  return `<${tag}>${escapeText(String(value))}</${tag}>`;
}

/** A field name as an XML name: `verifyKey.domain` stays, anything outside the name grammar is `_`. */
function tagName(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9_.-]/g, '_');
  return /^[A-Za-z_]/.test(safe) ? safe : `_${safe}`;
}

/** Text escaped, and the control characters XML 1.0 cannot carry at all left out. */
function escapeText(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.charCodeAt(0);
    if (code < 0x20 && char !== '\t' && char !== '\n' && char !== '\r') continue;
    out +=
      char === '&' ? '&amp;' : char === '<' ? '&lt;' : char === '>' ? '&gt;' : char === '"' ? '&quot;' : char;
  }
  return out;
}
