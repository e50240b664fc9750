/**
 * The DATA body as it goes on the wire (RFC 5321 §4.5.2): every line starting with "." gets
 * another, bare LFs become CRLF, and the body ends with CRLF so the final ".\r\n" stands alone.
 */
export function dotStuff(body: Buffer): Buffer {
  let needs = body[0] === 0x2e;
  for (let i = body.indexOf(0x0a); i >= 0 && !needs; i = body.indexOf(0x0a, i + 1)) {
    if (body[i + 1] === 0x2e || i === 0 || body[i - 1] !== 0x0d) needs = true;
  }
  const endsWell = body.length >= 2 && body[body.length - 2] === 0x0d && body[body.length - 1] === 0x0a;
  if (!needs) return endsWell ? body : Buffer.concat([body, Buffer.from('\r\n')]);
  const out: number[] = [];
  let lineStart = true;
  for (let i = 0; i < body.length; i++) {
    const byte = body[i] as number;
    if (lineStart && byte === 0x2e) out.push(0x2e);
    if (byte === 0x0a && (i === 0 || body[i - 1] !== 0x0d)) out.push(0x0d);
    out.push(byte);
    lineStart = byte === 0x0a;
  }
  if (!lineStart) out.push(0x0d, 0x0a);
  return Buffer.from(out);
}
