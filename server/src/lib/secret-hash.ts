import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Short secrets (captcha answers, six-digit codes, pass tokens) are stored as SHA-256 of a
 * per-record salt and the secret, and compared in constant time. A slow hash would add nothing:
 * the answer spaces are tiny, so what protects them is single use, short expiry and attempt caps.
 */
export function hashSecret(salt: string, secret: string): string {
  return createHash('sha256').update(`${salt}:${secret}`).digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** An unguessable identifier or token: 128 bits, base64url. */
export function randomId(): string {
  return randomBytes(16).toString('base64url');
}

/** An SVG document as the data URL an <img> takes. */
export function svgDataUrl(svg: string): string {
  return `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
}
