import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type Attachment, simpleParser } from 'mailparser';
import { waitFor } from '../helpers/wait.ts';
import { type PipelineHarness, startPipeline } from '../mta/pipeline-harness.ts';
import { listen, postMultipart } from './send-client.ts';

/**
 * Attachments as the recipient's mail program sees them: a multipart upload to a listening
 * Herald (v2 `mail/send` and v1 `mail.send.json`), delivered by the pipeline to the loopback MX,
 * and the caught mail parsed by mailparser. Each file arrives typed by its name (never the form
 * part's own `multipart/form-data`), under its name (a Chinese one decoded) and byte-identical.
 */

/** A PDF with every byte value in it, so no text-mode step can pass unnoticed. */
const PDF = Buffer.concat([
  Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1'),
  Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
  randomBytes(40_000),
  Buffer.from('\r\n\n\r.\r\n..\r\n%%EOF\n'),
]);
/** An .xlsx is a zip: binary from its first bytes. */
const XLSX = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), randomBytes(12_345)]);
const XLSX_NAME = '季度报表（2030年）.xlsx';

const FILES = [
  { name: 'invoice.pdf', type: 'multipart/form-data', content: PDF },
  { name: XLSX_NAME, type: 'application/octet-stream', content: XLSX },
];

describe('attachments on the wire', () => {
  let h: PipelineHarness;
  let base: string;

  before(async () => {
    h = await startPipeline({ api: true });
    base = await listen(h.t);
  });
  after(() => h?.close());

  /** What the MX caught for `address`, parsed the way a mail program parses it. */
  async function receivedBy(address: string) {
    const mail = await waitFor(`a mail to ${address} at the MX`, async () =>
      h.mx.messages.find((m) => m.rcptTo.includes(address)),
    );
    return simpleParser(mail.bytes);
  }

  function assertOpens(attachments: Attachment[]) {
    const byName = new Map(attachments.map((a) => [a.filename, a]));
    assert.deepEqual([...byName.keys()].sort(), ['invoice.pdf', XLSX_NAME].sort());
    const pdf = byName.get('invoice.pdf');
    const xlsx = byName.get(XLSX_NAME);
    assert.equal(pdf?.contentType, 'application/pdf');
    assert.equal(xlsx?.contentType, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    for (const a of attachments) {
      assert.equal(a.contentDisposition, 'attachment', a.filename);
      assert.doesNotMatch(a.contentType, /multipart/);
    }
    assert.ok(pdf?.content.equals(PDF), 'the PDF arrives byte-identical');
    assert.ok(xlsx?.content.equals(XLSX), 'the workbook arrives byte-identical');
  }

  it('v2 mail/send: each attachment typed by its name, named, and byte-identical', async () => {
    const sent = await postMultipart(
      base,
      'mail/send',
      {
        apiUser: h.sender.apiUser,
        apiKey: h.sender.apiKey,
        from: `bills@${h.sender.domain}`,
        to: 'ann@dest.test',
        subject: 'Your invoice',
        html: '<p>Attached.</p>',
      },
      FILES,
      'en',
    );
    assert.equal(sent.statusCode, 200, sent.message);
    const parsed = await receivedBy('ann@dest.test');
    assert.equal(parsed.subject, 'Your invoice');
    assertOpens(parsed.attachments);
  });

  it('v1 mail.send.json with files: the same attachments arrive the same way', async () => {
    const form = new FormData();
    const fields = {
      api_user: h.sender.apiUser,
      api_key: h.sender.apiKey,
      from: `bills@${h.sender.domain}`,
      fromname: 'Billing',
      to: 'bob@dest.test',
      subject: 'Your invoice (v1)',
      html: '<p>Attached.</p>',
      resp_email_id: 'true',
    };
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    for (const file of FILES) form.append('files', new Blob([file.content], { type: file.type }), file.name);
    const response = await fetch(`${base}/webapi/mail.send.json`, { method: 'POST', body: form });
    assert.equal(response.status, 200);
    const body = (await response.json()) as { message: string; email_id_list?: string[] };
    assert.equal(body.message, 'success', JSON.stringify(body));
    assert.equal(body.email_id_list?.length, 1);
    const parsed = await receivedBy('bob@dest.test');
    assert.equal(parsed.subject, 'Your invoice (v1)');
    assertOpens(parsed.attachments);
  });
});
