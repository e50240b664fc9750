/**
 * The DATA body as it goes on the wire (RFC 5321 §4.5.2): every line starting with "." gets
 * another, bare LFs become CRLF, and the body ends with CRLF so the final ".\r\n" stands alone.
 *
 * The body comes as pieces (a recipient's copy, pipeline/message-pieces.ts) and goes out as
 * pieces: the added bytes are small pieces of their own between views on the given ones, so a
 * large message is never copied to be stuffed. Lines run on across piece boundaries.
 */
const DOT = Buffer.from('.');
const CR = Buffer.from('\r');
const CRLF = Buffer.from('\r\n');

export function dotStuff(body: readonly Buffer[]): Buffer[] {
  const out: Buffer[] = [];
  let lineStart = true;
  let previous = -1;
  let length = 0;
  for (const piece of body) {
    if (piece.length === 0) continue;
    length += piece.length;
    if (lineStart && piece[0] === 0x2e) out.push(DOT);
    let from = 0;
    for (let at = piece.indexOf(0x0a); at >= 0; at = piece.indexOf(0x0a, at + 1)) {
      if ((at > 0 ? piece[at - 1] : previous) !== 0x0d) {
        out.push(piece.subarray(from, at), CR);
        from = at;
      }
      if (piece[at + 1] === 0x2e) {
        out.push(piece.subarray(from, at + 1), DOT);
        from = at + 1;
      }
    }
    out.push(from === 0 ? piece : piece.subarray(from));
    previous = piece[piece.length - 1] as number;
    lineStart = previous === 0x0a;
  }
  if (!lineStart || length === 0) out.push(CRLF);
  return out.filter((piece) => piece.length > 0);
}
