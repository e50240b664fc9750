import assert from 'node:assert/strict';
import { isAscii } from 'node:buffer';
import { describe, it } from 'node:test';
import { isWireSafe, NonAsciiAddressError, quotedPrintable, wireSafe } from '../../src/lib/mime-wire.ts';

/** The wire rules on single messages: what changes, and that nothing else does. */
describe('mime-wire', () => {
  const crlf = (lines: string[]) => Buffer.from(lines.join('\r\n'), 'utf8');

  it('returns the very same buffer for a message that is already fine', () => {
    const ok = crlf(['From: a@b.test', 'Subject: hi', '', 'é body', '']);
    assert.equal(wireSafe(ok, { eightBit: true }), ok);
    assert.equal(isWireSafe(ok, { eightBit: false }), false);
  });

  it('encodes raw UTF-8 and GBK headers as encoded words and parameters as RFC 2231', () => {
    const gbk = Buffer.from([0xc4, 0xe3, 0xba, 0xc3]); // 你好 in GBK
    const message = Buffer.concat([
      crlf(['From: "张三" <a@b.test>', 'Subject: ']),
      gbk,
      crlf([
        '',
        'Content-Type: application/pdf; charset=gbk; name="文件.pdf"',
        'Content-Transfer-Encoding: base64',
        '',
        'AAAA',
        '',
      ]),
    ]);
    const out = wireSafe(message, { eightBit: true }).toString('latin1');
    assert.ok(isAscii(Buffer.from(out, 'latin1')));
    assert.match(out, /^From: =\?UTF-8\?B\?5byg5LiJ\?= <a@b\.test>\r\n/);
    assert.match(out, /\r\nSubject: =\?gbk\?B\?xOO6ww==\?=\r\n/);
    assert.match(out, /name\*=UTF-8''%E6%96%87%E4%BB%B6\.pdf/);
    assert.match(out, /\r\n\r\nAAAA\r\n$/);
  });

  it('throws on a non-ASCII address, which no encoding can carry', () => {
    assert.throws(
      () => wireSafe(crlf(['To: 用户@例子.中国', '', 'x', '']), { eightBit: true }),
      NonAsciiAddressError,
    );
  });

  it('folds a long ASCII header at white space', () => {
    const words = Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ');
    const out = wireSafe(crlf([`Subject: ${words}`, '', 'x', '']), { eightBit: true }).toString('latin1');
    const lines = out.split('\r\n');
    assert.ok(
      lines.every((line) => line.length <= 78),
      'every line within 78',
    );
    assert.equal(out.split('\r\n\r\n')[0]?.replace(/\r\n /g, ' '), `Subject: ${words}`);
  });

  it('quoted-printable keeps CRLF as hard breaks, encodes trailing space and soft-wraps at 76', () => {
    const encoded = quotedPrintable(Buffer.from(`a = b \r\n${'x'.repeat(100)}`, 'latin1'));
    assert.equal(encoded, `a =3D b=20\r\n${'x'.repeat(75)}=\r\n${'x'.repeat(25)}`);
  });
});
