import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { loadSecretKey, SECRET_KEY_FILE, SecretBox, SecretBoxError } from '../../src/lib/secret-box.ts';
import { buildTestApp } from '../helpers/app.ts';
import { tempDir, testDialect } from '../helpers/database.ts';

const main = path.join(import.meta.dirname, '../../src/main.ts');

describe('secrets at rest', () => {
  const box = new SecretBox(randomBytes(32));

  it('seals in the versioned format and opens what it sealed', () => {
    const sealed = box.seal('JBSWY3DPEHPK3PXP', 'totp:1:2');
    assert.match(sealed, /^v1:[\w-]{16}:[\w-]{22}:[\w-]+$/);
    assert.ok(!sealed.includes('JBSWY3DPEHPK3PXP'));
    assert.equal(box.open(sealed, 'totp:1:2'), 'JBSWY3DPEHPK3PXP');
    assert.notEqual(box.seal('same', 'c'), box.seal('same', 'c'), 'a fresh IV each time');
    assert.equal(box.open(box.seal('', ''), ''), '');
    assert.equal(box.open(box.seal('密钥 ✓', 'x'), 'x'), '密钥 ✓');
  });

  it('refuses anything altered, another context and another key', () => {
    const sealed = box.seal('-----BEGIN PRIVATE KEY-----', 'dkim:7');
    const parts = sealed.split(':');
    const flip = (index: number) => {
      const bytes = Buffer.from(parts[index]!, 'base64url');
      bytes[0] = (bytes[0] ?? 0) ^ 1;
      return parts.map((p, i) => (i === index ? bytes.toString('base64url') : p)).join(':');
    };
    for (const tampered of [flip(1), flip(2), flip(3)]) {
      assert.throws(() => box.open(tampered, 'dkim:7'), SecretBoxError);
    }
    assert.throws(() => box.open(sealed, 'dkim:8'), /altered or sealed with another key/);
    assert.throws(() => new SecretBox(randomBytes(32)).open(sealed, 'dkim:7'), SecretBoxError);
    assert.throws(() => box.open(`v2${sealed.slice(2)}`, 'dkim:7'), /known version/);
    assert.throws(() => box.open('plain text', 'dkim:7'), SecretBoxError);
    assert.throws(() => new SecretBox(randomBytes(16)), /32 bytes/);
  });

  it('creates the key file once, mode 0600, and reuses it', () => {
    const dataDir = path.join(tempDir(), 'data');
    const key = loadSecretKey({ dataDir, secretKey: undefined });
    const file = path.join(dataDir, SECRET_KEY_FILE);
    assert.equal(key.length, 32);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(loadSecretKey({ dataDir, secretKey: undefined }), key);
    assert.deepEqual(fs.readdirSync(dataDir), [SECRET_KEY_FILE], 'no temporary files left');
    const sealed = new SecretBox(key).seal('kept across restarts');
    assert.equal(
      new SecretBox(loadSecretKey({ dataDir, secretKey: undefined })).open(sealed),
      'kept across restarts',
    );

    fs.writeFileSync(file, 'too short\n');
    assert.throws(() => loadSecretKey({ dataDir, secretKey: undefined }), ConfigError);
  });

  it('uses HERALD_SECRET_KEY when set, and refuses a malformed one', () => {
    const given = randomBytes(32);
    const config = loadConfig(
      { HERALD_DATA_DIR: tempDir(), HERALD_SECRET_KEY: given.toString('base64') },
      [],
    );
    assert.deepEqual(loadSecretKey(config), given);
    assert.ok(!fs.existsSync(path.join(config.dataDir, SECRET_KEY_FILE)), 'no key file when a key is given');
    for (const bad of [
      'short',
      randomBytes(16).toString('base64'),
      `${randomBytes(32).toString('base64')}!`,
    ]) {
      assert.throws(
        () => loadConfig({ HERALD_SECRET_KEY: bad }, []),
        /HERALD_SECRET_KEY: must be 32 random bytes/,
      );
    }
  });

  it('refuses to start on PostgreSQL without a key', () => {
    const env = { DATABASE_URL: 'postgres://herald@127.0.0.1:1/herald' };
    assert.throws(
      () => loadConfig(env, []),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, /^HERALD_SECRET_KEY is required with PostgreSQL/);
        return true;
      },
    );
    const withKey = loadConfig({ ...env, HERALD_SECRET_KEY: randomBytes(32).toString('base64') }, []);
    assert.equal(withKey.secretKey?.length, 32);

    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('HERALD_')));
    const run = spawnSync(process.execPath, [main], {
      env: { ...clean, ...env },
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /herald: HERALD_SECRET_KEY is required with PostgreSQL/);
  });

  if (testDialect === 'sqlite') {
    it('gives the embedded default a key file in the data directory on first start', async () => {
      const t = await buildTestApp();
      try {
        const file = path.join(t.core.config.dataDir, SECRET_KEY_FILE);
        assert.equal(fs.statSync(file).mode & 0o777, 0o600);
        const sealed = t.core.secretBox.seal('x');
        assert.equal(new SecretBox(loadSecretKey(t.core.config)).open(sealed), 'x');
      } finally {
        await t.close();
      }
    });
  }
});
