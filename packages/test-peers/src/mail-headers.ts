/**
 * Minimal RFC 5322 header reader for messages captured by the SMTP peer. Tests assert on
 * headers (Subject, DKIM-Signature, List-Unsubscribe, ...) far more often than on bodies, so the
 * peer pre-parses them: names are lower-cased, folded lines are unfolded, repeated headers keep
 * every value in order. Only the Subject gets RFC 2047 encoded-word decoding; other values are kept
 * exactly as sent so signatures and raw formatting can be checked.
 */

/** Lower-cased header name → unfolded values in the order they appear. */
export type MailHeaders = Record<string, string[]>;

/** Splits a raw message into its header block and parses it. */
export function parseHeaders(raw: string): MailHeaders {
  const end = raw.search(/\r?\n\r?\n/);
  const block = end === -1 ? raw : raw.slice(0, end);
  const headers: MailHeaders = {};
  const lines = block.split(/\r?\n/);
  let current: string | undefined;
  const flush = (): void => {
    if (current === undefined) return;
    const colon = current.indexOf(':');
    if (colon > 0) {
      const name = current.slice(0, colon).trim().toLowerCase();
      const value = current.slice(colon + 1).trim();
      const list = headers[name] ?? [];
      list.push(value);
      headers[name] = list;
    }
    current = undefined;
  };
  for (const line of lines) {
    if (/^[ \t]/.test(line) && current !== undefined) {
      current += line;
    } else {
      flush();
      current = line;
    }
  }
  flush();
  return headers;
}

/** Decodes RFC 2047 encoded words (`=?charset?B|Q?text?=`), joining adjacent ones. */
export function decodeEncodedWords(value: string): string {
  const joined = value.replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)/g, '$1');
  return joined.replace(
    /=\?([^?*]+)(?:\*[^?]*)?\?([BbQq])\?([^?]*)\?=/g,
    (word, charset: string, enc, text) => {
      try {
        const bytes =
          enc.toUpperCase() === 'B'
            ? Buffer.from(text, 'base64')
            : Buffer.from(
                text
                  .replace(/_/g, ' ')
                  .replace(/=([0-9A-Fa-f]{2})/g, (_m: string, hex: string) =>
                    String.fromCharCode(Number.parseInt(hex, 16)),
                  ),
                'latin1',
              );
        return new TextDecoder(charset).decode(bytes);
      } catch {
        return word;
      }
    },
  );
}
