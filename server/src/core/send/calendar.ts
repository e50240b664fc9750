import { randomUUID } from 'node:crypto';
import { AppError, BEIJING_OFFSET_MS, splitAddressList } from '@herald/shared';
import {
  type CalendarInvitation,
  type CalendarPerson,
  invitationContentType,
  invitationText,
} from '../../lib/icalendar.ts';
import { domainOf, isAddress } from './recipients.ts';
import type { SendAttachment, SendFields } from './send.types.ts';
import { parseXsmtpapi } from './xsmtpapi.ts';

/**
 * SendCloud's `mail/sendcalendar` parameters (reference §4) made into an iTIP invitation, which
 * travels with the mail as one more attachment typed `text/calendar; method=…` (the message
 * builder puts it beside the html and plain, and as invite.ics).
 *
 * Times: `startTime`/`endTime` are `yyyy-MM-dd HH:mm:ss` wall-clock times in SendCloud's zone,
 * Asia/Shanghai (UTC+8, no daylight saving), like every time of its API; the invitation states
 * them in UTC. `uid` is the caller's (needed to cancel or update) or made here and returned.
 * SEQUENCE is 0 for a first invitation; an update or a cancellation takes the current Unix
 * second, so each later message of the meeting outranks the earlier ones without Herald having
 * to remember them. Attendees are participatorEmails (named by participatorNames, in the same
 * order), or else the mail's recipients (to and cc, or xsmtpapi.to).
 */
const TEXT_MAX = 255;
const DESCRIPTION_MAX = 10_000;
const ATTENDEES_MAX = 300;
/** A reminder at most four weeks ahead. */
const ALARM_MAX_MINUTES = 40_320;
const UID = /^[A-Za-z0-9@._-]{1,255}$/;
const TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const NAMED = /^\s*"?([^"<]*?)"?\s*<\s*([^<>\s]+)\s*>\s*$/;

export interface CalendarPart {
  uid: string;
  attachment: SendAttachment;
}

export function calendarPart(fields: SendFields, now: number): CalendarPart {
  const start = wallTime(fields.startTime, 'startTime');
  const end = wallTime(fields.endTime, 'endTime');
  if (end <= start) throw new AppError('SEND_CALENDAR_TIME_ORDER');
  const title = text(fields.title, 'title', TEXT_MAX, true) as string;
  const location = text(fields.location, 'location', TEXT_MAX, true) as string;
  const description = text(fields.description, 'description', DESCRIPTION_MAX, false);
  const organizerName = text(fields.organizerName, 'organizerName', TEXT_MAX, true) as string;
  const organizerEmail = (fields.organizerEmail ?? '').trim();
  if (!organizerEmail) throw new AppError('SEND_CALENDAR_FIELD_REQUIRED', { field: 'organizerEmail' });
  if (!isAddress(organizerEmail)) {
    throw new AppError('SEND_CALENDAR_ADDRESS_INVALID', {
      field: 'organizerEmail',
      address: organizerEmail.slice(0, 100),
    });
  }
  const cancel = flag(fields.isCancel, 'isCancel');
  const update = flag(fields.isUpdate, 'isUpdate');
  const givenUid = (fields.uid ?? '').trim();
  if (givenUid && !UID.test(givenUid)) throw new AppError('SEND_CALENDAR_UID_INVALID');
  if ((cancel || update) && !givenUid) throw new AppError('SEND_CALENDAR_UID_REQUIRED');
  const uid = givenUid || `${randomUUID()}@${domainOf(organizerEmail)}`;
  const method = cancel ? 'CANCEL' : 'REQUEST';
  const invitation: CalendarInvitation = {
    method,
    uid,
    sequence: cancel || update ? Math.floor(now / 1000) : 0,
    start,
    end,
    stamp: now,
    title,
    location,
    description,
    organizer: { email: organizerEmail, name: organizerName },
    attendees: attendeesOf(fields),
    alarmMinutes: alarm(fields.valarmTime),
  };
  return {
    uid,
    attachment: {
      filename: 'invite.ics',
      contentType: invitationContentType(method),
      content: Buffer.from(invitationText(invitation), 'utf8'),
    },
  };
}

/** `yyyy-MM-dd HH:mm:ss` in Asia/Shanghai, as ms since the epoch. */
export function wallTime(value: string | undefined, field: 'startTime' | 'endTime'): number {
  const raw = (value ?? '').trim();
  if (!raw) throw new AppError('SEND_CALENDAR_FIELD_REQUIRED', { field });
  const m = TIME.exec(raw);
  if (!m) throw new AppError('SEND_CALENDAR_TIME_INVALID', { field });
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const local = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(local);
  const exact =
    back.getUTCFullYear() === y &&
    back.getUTCMonth() === mo - 1 &&
    back.getUTCDate() === d &&
    back.getUTCHours() === h &&
    back.getUTCMinutes() === mi &&
    back.getUTCSeconds() === s;
  if (!exact || y < 1970) throw new AppError('SEND_CALENDAR_TIME_INVALID', { field });
  return local - BEIJING_OFFSET_MS;
}

function text(value: string | undefined, field: string, max: number, required: boolean): string | null {
  const trimmed = (value ?? '').trim();
  if (!trimmed) {
    if (required) throw new AppError('SEND_CALENDAR_FIELD_REQUIRED', { field });
    return null;
  }
  if (trimmed.length > max) throw new AppError('SEND_CALENDAR_FIELD_INVALID', { field });
  return trimmed;
}

function flag(value: string | undefined, field: string): boolean {
  const raw = (value ?? '').trim().toLowerCase();
  if (raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  throw new AppError('SEND_CALENDAR_FIELD_INVALID', { field });
}

function alarm(value: string | undefined): number | null {
  const raw = (value ?? '').trim();
  if (!raw) return null;
  if (!/^\d{1,5}$/.test(raw) || Number(raw) > ALARM_MAX_MINUTES) {
    throw new AppError('SEND_CALENDAR_FIELD_INVALID', { field: 'valarmTime' });
  }
  return Number(raw);
}

function attendeesOf(fields: SendFields): CalendarPerson[] {
  const emails = splitAddressList(fields.participatorEmails);
  const field = emails.length > 0 ? 'participatorEmails' : 'to';
  let entries = emails;
  if (entries.length === 0) {
    const xsmtpapi = parseXsmtpapi(fields.xsmtpapi);
    entries = xsmtpapi?.to ?? [...splitAddressList(fields.to), ...splitAddressList(fields.cc)];
  }
  if (entries.length > ATTENDEES_MAX) throw new AppError('SEND_CALENDAR_FIELD_INVALID', { field });
  const names = (fields.participatorNames ?? '').split(';').map((n) => n.trim());
  const seen = new Set<string>();
  const people: CalendarPerson[] = [];
  entries.forEach((entry, i) => {
    const named = NAMED.exec(entry);
    const email = (named ? named[2] : entry)?.trim() ?? '';
    if (!isAddress(email)) {
      throw new AppError('SEND_CALENDAR_ADDRESS_INVALID', { field, address: entry.slice(0, 100) });
    }
    if (seen.has(email.toLowerCase())) return;
    seen.add(email.toLowerCase());
    const name = (emails.length > 0 ? names[i] : named?.[1]?.trim()) || null;
    people.push({ email, name });
  });
  return people;
}
