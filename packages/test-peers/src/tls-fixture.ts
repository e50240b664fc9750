/**
 * The self-signed certificate the local peers present for TLS (CN=mx.test, SAN mx.test, localhost,
 * 127.0.0.1, valid for 100 years). It is a committed fixture rather than generated per run so tests
 * need no openssl and stay fast; the private key is public, which is fine for loopback test peers
 * only. Exposed so a test can pin trust (`ca: testTls().cert`) instead of turning verification off.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const TEST_TLS_CERT_PATH: string = fileURLToPath(
  new URL('../fixtures/mx-test.cert.pem', import.meta.url),
);
export const TEST_TLS_KEY_PATH: string = fileURLToPath(
  new URL('../fixtures/mx-test.key.pem', import.meta.url),
);

export interface TestTls {
  key: string;
  cert: string;
}

let cached: TestTls | undefined;

/** PEM strings of the fixture key and certificate (read once, then cached). */
export function testTls(): TestTls {
  cached ??= {
    key: readFileSync(TEST_TLS_KEY_PATH, 'utf8'),
    cert: readFileSync(TEST_TLS_CERT_PATH, 'utf8'),
  };
  return cached;
}
