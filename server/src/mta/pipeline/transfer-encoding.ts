/**
 * Content-Transfer-Encoding for the text parts Herald rewrites in submitted mail: decoding what
 * the client sent, and encoding the rewritten text so that it stays 7-bit clean with lines of at
 * most 76 characters (quoted-printable, base64), or passes as 7bit when it is short-lined ASCII.
 */

export type TransferEncoding = '7bit' | '8bit' | 'binary' | 'quoted-printable' | 'base64';

const KNOWN = new Set<string>(['7bit', '8bit', 'binary', 'quoted-printable', 'base64']);

export function transferEncodingOf(value: string | undefined): TransferEncoding | null {
  const name = (value ?? '7bit').trim().toLowerCase();
  return KNOWN.has(name) ? (name as TransferEncoding) : null;
}

export function decodeTransfer(body: Buffer, encoding: TransferEncoding): Buffer {
  if (encoding === 'base64')
    return Buffer.from(body.toString('latin1').replace(/[^A-Za-z0-9+/]/g, ''), 'base64');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body.toString('latin1'));
  return body;
}

function decodeQuotedPrintable(text: string): Buffer {
  const unwrapped = text.replace(/=[ \t]*\r?\n/g, '');
  const out = Buffer.allocUnsafe(unwrapped.length);
  let n = 0;
  for (let i = 0; i < unwrapped.length; i++) {
    const code = unwrapped.charCodeAt(i);
    if (code === 0x3d && /^[0-9A-Fa-f]{2}$/.test(unwrapped.slice(i + 1, i + 3))) {
      out[n++] = Number.parseInt(unwrapped.slice(i + 1, i + 3), 16);
      i += 2;
    } else {
      out[n++] = code & 0xff;
    }
  }
  return out.subarray(0, n);
}

/**
 * The encoding a rewritten text part goes out in: base64 and quoted-printable parts keep theirs;
 * a 7bit or 8bit part stays as it is when the new text is short-lined ASCII, and otherwise
 * becomes quoted-printable, or base64 when most of it is not ASCII (Chinese text, say).
 */
export function chooseEncoding(text: string, original: TransferEncoding): TransferEncoding {
  if (original === 'base64' || original === 'quoted-printable') return original;
  const ascii = !/[^\t\r\n\x20-\x7e]/.test(text);
  if (ascii && !text.split('\r\n').some((line) => line.length > 998)) return original;
  const bytes = Buffer.from(text, 'utf8');
  let high = 0;
  for (const b of bytes) if (b > 0x7e) high++;
  return high * 5 > bytes.length ? 'base64' : 'quoted-printable';
}

/** The text (CRLF line ends) in `encoding`; the body has no line end after its last line. */
export function encodeText(text: string, encoding: TransferEncoding): string {
  if (encoding === 'base64') return base64Lines(Buffer.from(text, 'utf8'));
  if (encoding === 'quoted-printable') return text.split('\r\n').map(quotedPrintableLine).join('\r\n');
  return text;
}

function base64Lines(content: Buffer): string {
  const b64 = content.toString('base64');
  const lines: string[] = [];
  for (let i = 0; i < b64.length; i += 76) lines.push(b64.slice(i, i + 76));
  return lines.join('\r\n');
}

/** One line of text as quoted-printable, soft-broken so no output line is longer than 76. */
function quotedPrintableLine(line: string): string {
  const bytes = Buffer.from(line, 'utf8');
  let out = '';
  let length = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    const last = i === bytes.length - 1;
    const escaped =
      b === 0x3d || b > 0x7e || (b < 0x20 && b !== 0x09) || (last && (b === 0x20 || b === 0x09));
    const token = escaped ? `=${b.toString(16).toUpperCase().padStart(2, '0')}` : String.fromCharCode(b);
    if (length + token.length > 75) {
      out += '=\r\n';
      length = 0;
    }
    out += token;
    length += token.length;
  }
  return out;
}
