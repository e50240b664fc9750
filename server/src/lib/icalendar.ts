/**
 * A meeting invitation as iCalendar (RFC 5545) with its iTIP method (RFC 5546): one VEVENT in a
 * VCALENDAR whose METHOD is REQUEST (an invitation or an update: same UID, higher SEQUENCE) or
 * CANCEL (same UID, STATUS:CANCELLED). Times are written in UTC (`…Z`), so no VTIMEZONE is
 * needed and every calendar program agrees on the instant. Text values are escaped (backslash,
 * semicolon, comma, newline), parameter values quoted, and every content line folded at 75
 * octets without splitting a UTF-8 character; lines end in CRLF.
 */
export interface CalendarPerson {
  email: string;
  name: string | null;
}

export interface CalendarInvitation {
  method: 'REQUEST' | 'CANCEL';
  uid: string;
  sequence: number;
  /** ms since the epoch. */
  start: number;
  end: number;
  stamp: number;
  title: string;
  location: string;
  description: string | null;
  organizer: CalendarPerson;
  attendees: CalendarPerson[];
  /** Minutes before the start for a reminder; null for none. */
  alarmMinutes: number | null;
}

export const PRODUCT_ID = '-//Herald//SendCloud-compatible calendar//EN';

export function invitationText(inv: CalendarInvitation): string {
  const lines = [
    'BEGIN:VCALENDAR',
    `PRODID:${PRODUCT_ID}`,
    'VERSION:2.0',
    'CALSCALE:GREGORIAN',
    `METHOD:${inv.method}`,
    'BEGIN:VEVENT',
    `UID:${escapeText(inv.uid)}`,
    `SEQUENCE:${inv.sequence}`,
    `DTSTAMP:${utc(inv.stamp)}`,
    `DTSTART:${utc(inv.start)}`,
    `DTEND:${utc(inv.end)}`,
    `SUMMARY:${escapeText(inv.title)}`,
    `LOCATION:${escapeText(inv.location)}`,
    ...(inv.description ? [`DESCRIPTION:${escapeText(inv.description)}`] : []),
    `ORGANIZER${cn(inv.organizer)}:mailto:${inv.organizer.email}`,
    ...inv.attendees.map(
      (a) =>
        `ATTENDEE${cn(a)};CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:${a.email}`,
    ),
    `STATUS:${inv.method === 'CANCEL' ? 'CANCELLED' : 'CONFIRMED'}`,
    'TRANSP:OPAQUE',
    ...(inv.alarmMinutes !== null && inv.method === 'REQUEST'
      ? [
          'BEGIN:VALARM',
          'ACTION:DISPLAY',
          `DESCRIPTION:${escapeText(inv.title)}`,
          `TRIGGER:-PT${inv.alarmMinutes}M`,
          'END:VALARM',
        ]
      : []),
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(fold).join('\r\n')}\r\n`;
}

/** `20250301T020000Z`. */
export function utc(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** TEXT values (RFC 5545 §3.3.11). */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/** `;CN="…"`: a quoted parameter value may hold anything but DQUOTE and control characters. */
function cn(person: CalendarPerson): string {
  const name = (person.name ?? '').replace(/["\p{Cc}]/gu, '').trim();
  return name ? `;CN="${name}"` : '';
}

/** Folds a content line into lines of at most 75 octets, continuation lines starting with a space. */
export function fold(line: string): string {
  if (Buffer.byteLength(line) <= 75) return line;
  const out: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char);
    const limit = out.length === 0 ? 75 : 74;
    if (octets + size > limit) {
      out.push(current);
      current = '';
      octets = 0;
    }
    current += char;
    octets += size;
  }
  out.push(current);
  return out.join('\r\n ');
}

/**
 * How an invitation is stored among a message's attachments and recognised when the message is
 * built: the iTIP content type with its `method`. An uploaded `.ics` file is typed by its name
 * (plain `text/calendar`, no method), so it stays an ordinary attachment.
 */
export function invitationContentType(method: CalendarInvitation['method']): string {
  return `text/calendar; method=${method}; charset=UTF-8`;
}

export function isInvitationType(contentType: string): boolean {
  return /^text\/calendar\s*;(.*;)?\s*method=/i.test(contentType);
}
