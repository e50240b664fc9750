/**
 * The readable text of a raw MIME message as a recipient's client would show it: quoted-printable
 * and base64 bodies decoded, so tests can find the links a mail carries.
 */
export function decodedBody(raw: string): string {
  const pieces: string[] = [];
  for (const part of raw.split(/\r?\n--[^\r\n]+\r?\n/)) {
    const split = part.search(/\r?\n\r?\n/);
    if (split < 0) continue;
    const headers = part.slice(0, split).toLowerCase();
    const body = part.slice(split).trim();
    if (/content-transfer-encoding:\s*base64/.test(headers)) {
      pieces.push(Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64').toString('utf8'));
    } else if (/content-transfer-encoding:\s*quoted-printable/.test(headers)) {
      const bytes = body
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
      pieces.push(Buffer.from(bytes, 'latin1').toString('utf8'));
    } else {
      pieces.push(body);
    }
  }
  return pieces.join('\n');
}

export function linksIn(raw: string): string[] {
  return [...new Set(decodedBody(raw).match(/https?:\/\/[^\s"<>]+/g) ?? [])].map((l) =>
    l.replace(/&amp;/g, '&'),
  );
}
