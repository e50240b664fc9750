/**
 * RFC 6376 §3.4 "relaxed" canonicalisation of headers and body, written for one purpose: signing
 * the messages Herald builds. Messages are handled as latin1 strings so every byte maps to one
 * char and 8-bit bodies (UTF-8 or not) hash exactly as they are sent.
 *
 * Line endings: SMTP carries CRLF, and that is what a verifier hashes. Input with bare LF is read
 * as if every LF were CRLF, so the signature matches the message once it is normalised to CRLF
 * (`toCrlf`), which is what the delivery step sends.
 */

export interface HeaderField {
  /** Name as written, e.g. `Subject`. */
  name: string;
  /** The whole field as written, folded lines included, without the final line break. */
  raw: string;
}

export interface SplitMessage {
  headers: HeaderField[];
  /** Body as latin1 text, after the blank line; empty when there is none. */
  body: string;
}

/** Bare LF (and only LF) becomes CRLF; existing CRLF are kept. */
export function toCrlf(message: Buffer): Buffer {
  if (!message.includes(0x0a)) return message;
  return Buffer.from(message.toString('latin1').replace(/\r?\n/g, '\r\n'), 'latin1');
}

/** Splits at the first empty line into header fields (unfolded lines kept together) and body. */
export function splitMessage(message: Buffer): SplitMessage {
  const text = message.toString('latin1');
  let headerText: string;
  let body: string;
  const leading = /^\r?\n/.exec(text);
  const blank = /\r?\n\r?\n/.exec(text);
  if (leading) {
    headerText = ''; // the message starts with the blank line: no header block at all
    body = text.slice(leading[0].length);
  } else if (blank) {
    headerText = text.slice(0, blank.index);
    body = text.slice(blank.index + blank[0].length);
  } else {
    headerText = text;
    body = '';
  }

  const headers: HeaderField[] = [];
  for (const line of headerText.split(/\r?\n/)) {
    const last = headers.at(-1);
    if ((line.startsWith(' ') || line.startsWith('\t')) && last) {
      last.raw += `\r\n${line}`;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue; // not a header field; nothing a verifier could select either
    headers.push({ name: line.slice(0, colon).trim(), raw: line });
  }
  return { headers, body };
}

/**
 * Relaxed header canonicalisation: lower-case name, unfold, runs of WSP to one SP, no WSP at the
 * ends of the value or around the colon. Returned without the trailing CRLF.
 */
export function relaxedHeader(raw: string): string {
  const colon = raw.indexOf(':');
  const name = raw
    .slice(0, colon)
    .replace(/[ \t]+$/, '')
    .toLowerCase();
  const value = raw
    .slice(colon + 1)
    .replace(/\r?\n/g, '')
    .replace(/[ \t]+/g, ' ')
    .replace(/^ | $/g, ''); // not trim(): in latin1 text byte 0xA0 would count as a space
  return `${name}:${value}`;
}

/**
 * Relaxed body canonicalisation: runs of WSP within a line to one SP, no WSP at line ends, no
 * empty lines at the end; a non-empty body ends with exactly one CRLF, an empty one is empty.
 */
export function relaxedBody(body: string): string {
  const lines = body.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    lines[i] = (lines[i] as string).replace(/[ \t]+/g, ' ').replace(/ $/, '');
  }
  let end = lines.length;
  while (end > 0 && lines[end - 1] === '') end--;
  if (end === 0) return '';
  return `${lines.slice(0, end).join('\r\n')}\r\n`;
}
