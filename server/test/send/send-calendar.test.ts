import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type PipelineHarness, startPipeline } from '../mta/pipeline-harness.ts';
import { type Envelope, listen, postForm } from './send-client.ts';

/**
 * `/apiv2/mail/sendcalendar` as a SendCloud client calls it: form posts to a listening Herald,
 * delivered by the pipeline to the loopback MX. What the recipient's server receives is read
 * the way a mail program does: the MIME tree walked, the text/calendar alternative unfolded and
 * its properties checked (METHOD, UID, SEQUENCE, DTSTART/DTEND, ORGANIZER, ATTENDEE, VALARM);
 * then the same meeting cancelled by its uid, and bad parameters answered with 4xxxx codes.
 */
describe('mail/sendcalendar', () => {
  let h: PipelineHarness;
  let base: string;

  before(async () => {
    h = await startPipeline({ api: true });
    base = await listen(h.t);
  });
  after(() => h?.close());

  const LONG = `议程：${'预算与排期、'.repeat(12)}\nBring the Q1 figures; laptops, too.`;
  const fields = (extra: Record<string, string> = {}) => ({
    apiUser: h.sender.apiUser,
    apiKey: h.sender.apiKey,
    from: `meet@${h.sender.domain}`,
    fromName: 'Meetings',
    to: 'ann@dest.test;bob@dest.test',
    subject: 'Quarterly review',
    html: '<p>You are invited.</p>',
    plain: 'You are invited.',
    startTime: '2030-03-01 10:00:00',
    endTime: '2030-03-01 11:30:00',
    title: 'Quarterly review, Q1; budget',
    organizerName: '王经理',
    organizerEmail: `boss@${h.sender.domain}`,
    location: 'Room 3, Building B',
    description: LONG,
    participatorNames: 'Ann Lee;Bob',
    participatorEmails: 'ann@dest.test;bob@dest.test',
    valarmTime: '15',
    ...extra,
  });

  async function deliveredTo(address: string, sent: Envelope): Promise<Entity> {
    assert.equal(sent.result, true, JSON.stringify(sent));
    const emailId = (sent.info.emailIdList ?? []).find((id) => id.endsWith(`$${address}`)) ?? '';
    await h.waitForStatus(emailId, 'delivered');
    // Each case waits for its own mail, so the newest one to the address is it.
    const mail = h.mx.messages.filter((m) => m.rcptTo.includes(address)).at(-1);
    assert.ok(mail, `the mail to ${address} reached the MX`);
    return parseEntity(mail.raw);
  }

  let uid = '';

  it('delivers an invitation: a text/calendar REQUEST beside html and plain, and invite.ics', async () => {
    const sent = await postForm(base, 'mail/sendcalendar', fields(), 'en');
    assert.equal(sent.statusCode, 200, sent.message);
    uid = String(sent.info.uid ?? '');
    assert.match(uid, new RegExp(`^[0-9a-f-]{36}@${h.sender.domain.replace(/\./g, '\\.')}$`));
    assert.equal(sent.info.emailIdList?.length, 2);

    const mail = await deliveredTo('ann@dest.test', sent);
    assert.match(mail.type, /^multipart\/mixed;/);
    const [alternative, attachment] = mail.parts;
    assert.match(alternative?.type ?? '', /^multipart\/alternative;/);
    assert.deepEqual(
      alternative?.parts.map((p) => p.type.split(';')[0]),
      ['text/plain', 'text/html', 'text/calendar'],
    );
    const calendarPart = alternative?.parts[2];
    assert.match(calendarPart?.type ?? '', /^text\/calendar; method=REQUEST; charset=UTF-8$/i);
    assert.match(attachment?.type ?? '', /^application\/ics/);
    assert.match(attachment?.headers.get('content-disposition') ?? '', /attachment; filename="invite\.ics"/);
    assert.equal(attachment?.body, calendarPart?.body, 'invite.ics is the same invitation');

    const text = calendarPart?.body ?? '';
    for (const line of text.split('\r\n')) {
      assert.ok(Buffer.byteLength(line) <= 75, `folded at 75 octets: ${line}`);
    }
    assert.ok(text.endsWith('\r\n') && !/[^\r]\n/.test(text), 'CRLF line ends');
    const ics = parseIcs(text);
    assert.equal(ics.value('METHOD'), 'REQUEST');
    assert.equal(ics.value('UID'), uid);
    assert.equal(ics.value('SEQUENCE'), '0');
    // 10:00 in Asia/Shanghai (UTC+8), written in UTC.
    assert.equal(ics.value('DTSTART'), '20300301T020000Z');
    assert.equal(ics.value('DTEND'), '20300301T033000Z');
    assert.match(ics.value('DTSTAMP') ?? '', /^\d{8}T\d{6}Z$/);
    assert.equal(ics.value('SUMMARY'), 'Quarterly review\\, Q1\\; budget');
    assert.equal(ics.value('LOCATION'), 'Room 3\\, Building B');
    assert.equal(
      ics.value('DESCRIPTION'),
      LONG.replace(/,/g, '\\,').replace(/;/g, '\\;').replace(/\n/g, '\\n'),
    );
    assert.equal(ics.value('STATUS'), 'CONFIRMED');
    assert.deepEqual(ics.all('ORGANIZER'), [`ORGANIZER;CN="王经理":mailto:boss@${h.sender.domain}`]);
    const attendees = ics.all('ATTENDEE');
    assert.equal(attendees.length, 2);
    assert.match(
      attendees[0] ?? '',
      /^ATTENDEE;CN="Ann Lee";.*ROLE=REQ-PARTICIPANT.*RSVP=TRUE:mailto:ann@dest\.test$/,
    );
    assert.match(attendees[1] ?? '', /^ATTENDEE;CN="Bob";.*:mailto:bob@dest\.test$/);
    assert.deepEqual(ics.block('VALARM'), [
      'BEGIN:VALARM',
      'ACTION:DISPLAY',
      'DESCRIPTION:Quarterly review\\, Q1\\; budget',
      'TRIGGER:-PT15M',
      'END:VALARM',
    ]);
    assert.deepEqual(ics.lines.slice(0, 2), [
      'BEGIN:VCALENDAR',
      'PRODID:-//Herald//SendCloud-compatible calendar//EN',
    ]);
    assert.equal(ics.lines.at(-1), 'END:VCALENDAR');
  });

  it('updates the meeting by its uid: METHOD:REQUEST, the same UID, a higher SEQUENCE', async () => {
    assert.ok(uid, 'the invitation test ran first');
    const sent = await postForm(
      base,
      'mail/sendcalendar',
      fields({
        uid,
        isUpdate: 'true',
        subject: 'Moved: Quarterly review',
        to: 'ann@dest.test',
        location: 'Room 5, Building C',
        startTime: '2030-03-01 14:00:00',
        endTime: '2030-03-01 15:30:00',
      }),
    );
    assert.equal(sent.info.uid, uid);
    const mail = await deliveredTo('ann@dest.test', sent);
    const calendarPart = mail.parts[0]?.parts.find((p) => p.type.startsWith('text/calendar'));
    assert.match(calendarPart?.type ?? '', /^text\/calendar; method=REQUEST; charset=UTF-8$/i);
    const ics = parseIcs(calendarPart?.body ?? '');
    assert.equal(ics.value('METHOD'), 'REQUEST');
    assert.equal(ics.value('UID'), uid);
    assert.equal(ics.value('STATUS'), 'CONFIRMED');
    assert.ok(Number(ics.value('SEQUENCE')) > 0, `the update outranks the invitation's SEQUENCE 0`);
    assert.equal(ics.value('DTSTART'), '20300301T060000Z');
    assert.equal(ics.value('LOCATION'), 'Room 5\\, Building C');
    assert.equal(ics.block('VALARM').length, 5, 'the reminder stays');
  });

  it('cancels the meeting by its uid: METHOD:CANCEL, STATUS:CANCELLED, a higher SEQUENCE', async () => {
    assert.ok(uid, 'the invitation test ran first');
    const sent = await postForm(
      base,
      'mail/sendcalendar',
      fields({ uid, isCancel: 'true', subject: 'Cancelled: Quarterly review', to: 'ann@dest.test' }),
    );
    assert.equal(sent.info.uid, uid);
    const mail = await deliveredTo('ann@dest.test', sent);
    const calendarPart = mail.parts[0]?.parts.find((p) => p.type.startsWith('text/calendar'));
    assert.match(calendarPart?.type ?? '', /^text\/calendar; method=CANCEL; charset=UTF-8$/i);
    const ics = parseIcs(calendarPart?.body ?? '');
    assert.equal(ics.value('METHOD'), 'CANCEL');
    assert.equal(ics.value('UID'), uid);
    assert.equal(ics.value('STATUS'), 'CANCELLED');
    assert.ok(Number(ics.value('SEQUENCE')) > 0, 'the cancellation outranks the invitation');
    assert.equal(ics.value('DTSTART'), '20300301T020000Z');
    assert.deepEqual(ics.block('VALARM'), [], 'no reminder for a cancelled meeting');
  });

  it('without participatorEmails, invites the mail’s recipients', async () => {
    const sent = await postForm(
      base,
      'mail/sendcalendar',
      fields({
        participatorEmails: '',
        participatorNames: '',
        to: 'Cat Chen<cat@dest.test>',
        cc: 'dan@dest.test',
      }),
    );
    const mail = await deliveredTo('cat@dest.test', sent);
    const calendarPart = mail.parts[0]?.parts.find((p) => p.type.startsWith('text/calendar'));
    const attendees = parseIcs(calendarPart?.body ?? '').all('ATTENDEE');
    assert.equal(attendees.length, 2);
    assert.match(attendees[0] ?? '', /^ATTENDEE;CN="Cat Chen";.*:mailto:cat@dest\.test$/);
    assert.match(attendees[1] ?? '', /^ATTENDEE;CUTYPE=INDIVIDUAL;.*:mailto:dan@dest\.test$/);
  });

  it('answers SendCloud-style 4xxxx codes for bad meeting parameters, and sends nothing', async () => {
    const cases: [Record<string, string>, number, RegExp][] = [
      [{ startTime: '2030/03/01 10:00' }, 40883, /startTime is not a valid time: use yyyy-MM-dd HH:mm:ss/],
      [{ endTime: '2030-02-30 11:00:00' }, 40883, /endTime is not a valid time/],
      [{ endTime: '2030-03-01 09:00:00' }, 40884, /must be after the start time/],
      [{ title: ' ' }, 40881, /The calendar parameter title is required/],
      [{ organizerEmail: 'not an address' }, 40885, /organizerEmail contains an invalid address/],
      [
        { participatorEmails: 'ann@dest.test;bad@' },
        40885,
        /participatorEmails contains an invalid address: bad@/,
      ],
      [{ isUpdate: 'true' }, 40886, /needs the uid/],
      [{ uid: 'has space' }, 40887, /uid is not valid/],
      [{ isCancel: 'yes' }, 40882, /isCancel is not valid/],
      [{ valarmTime: '-5' }, 40882, /valarmTime is not valid/],
    ];
    for (const [extra, code, message] of cases) {
      const answer = await postForm(
        base,
        'mail/sendcalendar',
        fields({ ...extra, subject: 'Refused' }),
        'en',
      );
      assert.equal(answer.result, false, JSON.stringify(extra));
      assert.equal(answer.statusCode, code, `${JSON.stringify(extra)}: ${answer.message}`);
      assert.match(answer.message, message);
    }
    const zh = await postForm(
      base,
      'mail/sendcalendar',
      fields({ startTime: 'tomorrow', subject: 'Refused' }),
    );
    assert.equal(zh.statusCode, 40883);
    assert.equal(zh.message, 'startTime格式错误, 应形如 yyyy-MM-dd HH:mm:ss');
    const stored = await h.t.core.database.db
      .selectFrom('messages')
      .select('id')
      .where('subject', '=', 'Refused')
      .execute();
    assert.deepEqual(stored, []);
  });
});

interface Entity {
  type: string;
  headers: Map<string, string>;
  body: string;
  parts: Entity[];
}

/** A MIME entity as a mail program reads it: unfolded headers, decoded body, its parts. */
function parseEntity(raw: string): Entity {
  const split = raw.indexOf('\r\n\r\n');
  const head = (split < 0 ? raw : raw.slice(0, split)).replace(/\r\n[ \t]+/g, ' ');
  const content = split < 0 ? '' : raw.slice(split + 4);
  const headers = new Map<string, string>();
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith('multipart/') && boundary) {
    const parts = content
      .split(`--${boundary}`)
      .slice(1)
      .filter((p) => !p.startsWith('--'))
      .map((p) => parseEntity(p.replace(/^\r\n/, '').replace(/\r\n$/, '')));
    return { type, headers, body: '', parts };
  }
  const encoding = (headers.get('content-transfer-encoding') ?? '').toLowerCase();
  const body =
    encoding === 'base64'
      ? Buffer.from(content.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64').toString('utf8')
      : content;
  return { type, headers, body, parts: [] };
}

/** iCalendar content lines, unfolded (RFC 5545 §3.1). */
function parseIcs(text: string) {
  const lines = text
    .replace(/\r\n[ \t]/g, '')
    .split('\r\n')
    .filter(Boolean);
  const nameOf = (line: string) => /^[A-Z-]+/.exec(line)?.[0] ?? '';
  return {
    lines,
    all: (name: string) => lines.filter((l) => nameOf(l) === name),
    /** The value of the first property `name` outside a VALARM. */
    value: (name: string) => {
      const inAlarm = new Set(lines.slice(lines.indexOf('BEGIN:VALARM'), lines.indexOf('END:VALARM') + 1));
      const line = lines.find((l) => nameOf(l) === name && !inAlarm.has(l));
      return line?.slice(line.indexOf(':') + 1);
    },
    block: (component: string) => {
      const from = lines.indexOf(`BEGIN:${component}`);
      return from < 0 ? [] : lines.slice(from, lines.indexOf(`END:${component}`) + 1);
    },
  };
}
