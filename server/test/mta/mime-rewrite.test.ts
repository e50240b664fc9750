import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type RecipientCopy, rewriteSubmitted } from '../../src/mta/pipeline/mime-rewrite.ts';
import { readSubmitted } from '../../src/mta/pipeline/submitted-mime.ts';
import { decodedBody } from '../helpers/mail.ts';

/**
 * A recipient's copy of SMTP-submitted mail, byte for byte as the pipeline hands it to DKIM and
 * DATA (before Message-ID, Date and List-Unsubscribe go on top): what must change is rewritten,
 * what need not is the submitted bytes. The end-to-end cases are in smtp/submission-delivery.test.ts.
 */
const copy = (vars: Record<string, string> | null, to: string | null = null): RecipientCopy => ({
  personalisation: { vars, section: null, pubsub: null },
  to,
  track: (body) => body,
});

const rewrite = (raw: string | Buffer, c: RecipientCopy) =>
  Buffer.concat(rewriteSubmitted(readSubmitted(Buffer.from(raw)), c));

describe('mime-rewrite', () => {
  it('gives back the submitted bytes when nothing Herald reads in them is personal', () => {
    const raw = Buffer.from(
      [
        'From: a@shop.test',
        'Subject: =?ISO-8859-1?Q?Gr=FC=DFe?=',
        'Content-Type: multipart/mixed; boundary=b',
        '',
        '--b',
        'Content-Type: text/plain; charset=iso-8859-1',
        'Content-Transfer-Encoding: 8bit',
        '',
        'Gr\xfc\xdfe %name%',
        '--b--',
        '',
      ].join('\r\n'),
      'latin1',
    );
    assert.deepEqual(rewrite(raw, copy({ '%name%': 'Ann' })), raw);
  });

  it('leaves a part in another charset untouched while substituting the UTF-8 one beside it', () => {
    const raw = Buffer.concat([
      Buffer.from(
        'Subject: x\r\nContent-Type: multipart/alternative; boundary="b"\r\n\r\n--b\r\nContent-Type: text/plain; charset=gbk\r\n\r\n',
      ),
      Buffer.from([0xc4, 0xe3, 0xba, 0xc3, 0x20]),
      Buffer.from(
        '%name%\r\n--b\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>%name%</p>\r\n--b--\r\n',
      ),
    ]);
    const out = rewrite(raw, copy({ '%name%': 'Ann' }));
    assert.ok(
      out.includes(Buffer.from([0xc4, 0xe3, 0xba, 0xc3, 0x20, 0x25, 0x6e])),
      'the gbk part as it was',
    );
    assert.match(out.toString('latin1'), /\r\n\r\n<p>Ann<\/p>\r\n--b--\r\n$/);
  });

  it('re-encodes an 8bit part with non-ASCII values 7-bit clean, and a us-ascii part becomes utf-8', () => {
    const raw = [
      'Subject: Hi',
      'Content-Type: text/plain; charset=us-ascii',
      '',
      'Dear %name%, see you.',
      '',
    ].join('\n');
    const out = rewrite(raw, copy({ '%name%': '王小明' })).toString('latin1');
    assert.match(out, /^Subject: Hi\r\nContent-Type: text\/plain; charset=utf-8\r\n/);
    assert.match(out, /\r\nContent-Transfer-Encoding: (base64|quoted-printable)\r\n\r\n/);
    assert.match(out, /^[\x20-\x7e\r\n]*$/);
    assert.equal(decodedBody(`x\r\n--b\r\n${out}`).trim(), 'Dear 王小明, see you.');
  });

  it('puts the recipient in To (adding one when there was none) and keeps a group address list as it came', () => {
    const withTo = rewrite(
      'To: a@x.test,\r\n b@x.test\r\nSubject: s\r\n\r\nbody\r\n',
      copy(null, 'c@x.test'),
    );
    assert.equal(withTo.toString(), 'To: c@x.test\r\nSubject: s\r\n\r\nbody\r\n');
    const without = rewrite('Subject: s\r\n\r\nbody\r\n', copy(null, 'c@x.test'));
    assert.equal(without.toString(), 'Subject: s\r\nTo: c@x.test\r\n\r\nbody\r\n');
    const group = 'Cc: friends %name%: a@x.test;\r\nSubject: s\r\n\r\nbody\r\n';
    assert.equal(rewrite(group, copy({ '%name%': 'Ann' })).toString(), group);
  });
});
