import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type Config, ConfigError } from '../config.ts';

/**
 * Secrets Herald must read back (TOTP secrets, DKIM private keys) are sealed at rest with
 * AES-256-GCM: `v1:<iv>:<tag>:<ciphertext>`, each part base64url. The version prefix lets a later
 * format or key rotation open old values; GCM's tag makes any change to a sealed value, or a
 * different key, fail to open instead of yielding garbage. A caller may bind a value to where it
 * belongs (`context`, authenticated but not stored), so a sealed secret copied onto another
 * user's row does not open there. Secrets that only need comparing are hashed instead
 * (secret-hash.ts, password.ts).
 */
const VERSION = 'v1';
const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const SECRET_KEY_BYTES = 32;
export const SECRET_KEY_FILE = 'secret.key';

export class SecretBoxError extends Error {
  override name = 'SecretBoxError';
}

export class SecretBox {
  private readonly key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== SECRET_KEY_BYTES) throw new SecretBoxError(`a key must be ${SECRET_KEY_BYTES} bytes`);
    this.key = Buffer.from(key);
  }

  seal(plaintext: string, context = ''): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString('base64url'));
    return [VERSION, ...parts].join(':');
  }

  open(sealed: string, context = ''): string {
    const [version, iv, tag, ciphertext, ...extra] = sealed.split(':');
    if (version !== VERSION || iv === undefined || tag === undefined || ciphertext === undefined) {
      throw new SecretBoxError('not a sealed value of a known version');
    }
    if (extra.length > 0) throw new SecretBoxError('malformed sealed value');
    const decipher = createDecipheriv(ALGORITHM, this.key, Buffer.from(iv, 'base64url'), {
      authTagLength: TAG_BYTES,
    });
    try {
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      const plain = Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]);
      return plain.toString('utf8');
    } catch {
      throw new SecretBoxError('the sealed value was altered or sealed with another key');
    }
  }
}

/**
 * The configured key, or for the embedded default the one in `<dataDir>/secret.key`, created
 * with mode 0600 on first start. The file is written under a temporary name and then linked into
 * place, which fails if it exists: of two processes starting at once, one publishes a complete
 * key and the other reads it. (config.ts refuses PostgreSQL without a configured key.)
 */
export function loadSecretKey(config: Pick<Config, 'secretKey' | 'dataDir'>): Buffer {
  if (config.secretKey) return config.secretKey;
  const file = path.join(config.dataDir, SECRET_KEY_FILE);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    fs.writeFileSync(temporary, `${randomBytes(SECRET_KEY_BYTES).toString('base64')}\n`, { mode: 0o600 });
    try {
      fs.linkSync(temporary, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.rmSync(temporary, { force: true });
    }
  }
  const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== SECRET_KEY_BYTES) {
    throw new ConfigError(`${file} does not hold a ${SECRET_KEY_BYTES}-byte base64 key`);
  }
  return key;
}
