import { createHash, type KeyObject, sign } from 'node:crypto';
import { type HeaderField, RelaxedBody, relaxedHeader, splitPieces } from './canonicalize.ts';

/**
 * DKIM signing (RFC 6376), rsa-sha256 with relaxed/relaxed canonicalisation, of a message that
 * is already built, whole or as the pieces a recipient's copy is kept in (the body is hashed
 * piece by piece, never joined). The caller prepends the returned `DKIM-Signature` field
 * (CRLF-terminated) to the exact bytes it sends.
 *
 * Signed fields: those below that the message has, each as often as it occurs (the last
 * occurrences, as RFC 6376 §5.4.2 selects them), and `from` once more than it occurs
 * (over-signing) so that nobody can add a second From after signing.
 */
export const SIGNED_HEADERS = [
  'from',
  'to',
  'cc',
  'subject',
  'date',
  'message-id',
  'reply-to',
  'mime-version',
  'content-type',
  'content-transfer-encoding',
  'list-unsubscribe',
  'list-unsubscribe-post',
  'feedback-id',
] as const;

const OVERSIGNED = new Set(['from']);

export interface DkimSigner {
  /** d= */
  domain: string;
  /** s= */
  selector: string;
  /** A parsed RSA private key (createPrivateKey), so no PEM is parsed per message. */
  privateKey: KeyObject;
}

export interface DkimSignOptions {
  /** Signing time for t=; now by default. */
  now?: Date;
}

const DNS_LABELS =
  /^[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?)*$/;
const LINE_WIDTH = 76;

export function dkimSign(
  message: Uint8Array | readonly Uint8Array[],
  signer: DkimSigner,
  options: DkimSignOptions = {},
): string {
  if (!DNS_LABELS.test(signer.domain) || !DNS_LABELS.test(signer.selector)) {
    throw new TypeError(`DKIM domain or selector is not a DNS name: ${signer.domain} / ${signer.selector}`);
  }
  const { headers, body } = splitPieces(message instanceof Uint8Array ? [message] : message);
  const hash = createHash('sha256');
  const canonical = new RelaxedBody((chunk) => hash.update(chunk));
  for (const piece of body) canonical.write(piece);
  canonical.end();
  const bodyHash = hash.digest('base64');
  const names = signedNames(headers);
  const time = Math.floor((options.now ?? new Date()).getTime() / 1000);

  const field = new FieldFolder('DKIM-Signature:');
  field.put(' ', 'v=1');
  field.put('; ', 'a=rsa-sha256');
  field.put('; ', 'c=relaxed/relaxed');
  field.put('; ', `d=${signer.domain}`);
  field.put('; ', `s=${signer.selector}`);
  field.put('; ', `t=${time}`);
  names.forEach((name, i) => {
    field.put(i === 0 ? '; ' : ':', i === 0 ? `h=${name}` : name);
  });
  field.put('; ', `bh=${bodyHash}`);
  field.put('; ', 'b=');

  const hashed = selectedHeaders(headers, names);
  hashed.push(relaxedHeader(field.text()));
  const signature = sign('sha256', Buffer.from(hashed.join('\r\n'), 'latin1'), signer.privateKey).toString(
    'base64',
  );
  for (let i = 0; i < signature.length; i += 8) field.put('', signature.slice(i, i + 8));
  return `${field.text()}\r\n`;
}

/** The h= list: each name as often as the message has it, plus one for over-signed names. */
function signedNames(headers: HeaderField[]): string[] {
  const counts = new Map<string, number>();
  for (const h of headers) {
    const name = h.name.toLowerCase();
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const names: string[] = [];
  for (const name of SIGNED_HEADERS) {
    const count = (counts.get(name) ?? 0) + (OVERSIGNED.has(name) ? 1 : 0);
    for (let i = 0; i < count; i++) names.push(name);
  }
  return names;
}

/** Canonical fields in h= order, taking repeated names from the bottom up (RFC 6376 §5.4.2). */
function selectedHeaders(headers: HeaderField[], names: string[]): string[] {
  const used = new Map<string, number>();
  const out: string[] = [];
  for (const name of names) {
    const skip = used.get(name) ?? 0;
    used.set(name, skip + 1);
    let seen = 0;
    for (let i = headers.length - 1; i >= 0; i--) {
      const h = headers[i] as HeaderField;
      if (h.name.toLowerCase() !== name) continue;
      if (seen++ === skip) {
        out.push(relaxedHeader(h.raw));
        break;
      }
    }
  }
  return out;
}

/** Builds a folded header field: a piece never splits, a line breaks before it if it would not fit. */
class FieldFolder {
  private readonly lines: string[] = [];
  private line: string;

  constructor(start: string) {
    this.line = start;
  }

  put(glue: string, piece: string): void {
    if (this.line.length + glue.length + piece.length > LINE_WIDTH) {
      this.lines.push(this.line + glue.trimEnd());
      this.line = `\t${piece}`;
    } else {
      this.line += glue + piece;
    }
  }

  text(): string {
    return [...this.lines, this.line].join('\r\n');
  }
}
