import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { CONSOLE_LOCALES_DIR } from '../harness/paths.ts';

/**
 * The console's translations are one JSON file per area and language. This fails when a file,
 * a key or a value exists in one language but not the other, or when a value is empty.
 */
const LANGS = ['zh-cn', 'en'] as const;

type Flat = Map<string, unknown>;

function flatten(value: unknown, prefix: string, out: Flat): Flat {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value)) flatten(child, `${prefix}.${key}`, out);
  } else {
    out.set(prefix, value);
  }
  return out;
}

async function loadLang(lang: string): Promise<Flat> {
  const dir = join(CONSOLE_LOCALES_DIR, lang);
  const files = (await readdir(dir)).filter((name) => name.endsWith('.json')).sort();
  const keys: Flat = new Map();
  for (const file of files) {
    const area = file.slice(0, -'.json'.length);
    const content: unknown = JSON.parse(await readFile(join(dir, file), 'utf8'));
    keys.set(`${area}.json`, 'file');
    flatten(content, area, keys);
  }
  return keys;
}

test('every locale key exists in both languages with a non-empty value', async () => {
  const [zh, en] = await Promise.all(LANGS.map(loadLang));
  assert.ok(zh && en);
  assert.ok(zh.size > 0, 'no zh-cn locale files found');

  const problems: string[] = [];
  for (const [key] of zh) if (!en.has(key)) problems.push(`en lacks ${key}`);
  for (const [key] of en) if (!zh.has(key)) problems.push(`zh-cn lacks ${key}`);
  for (const [lang, keys] of [
    ['zh-cn', zh],
    ['en', en],
  ] as const) {
    for (const [key, value] of keys) {
      if (typeof value !== 'string') problems.push(`${lang} ${key} is not a string`);
      else if (value.trim() === '') problems.push(`${lang} ${key} is empty`);
    }
  }
  assert.deepEqual(problems, []);
});
