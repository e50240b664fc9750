import {
  AppError,
  type EmailTracksQuery,
  type EmailTrackView,
  type MailEventData,
  TRACK_QUERY_MAX_MS,
  type TrackType,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import { apiUserIdsByName } from '../api-users/api-users.repo.ts';
import type { Caller } from '../context.ts';
import type { EmailTracksFilter } from './email-tracks.repo.ts';
import * as repo from './email-tracks.repo.ts';

const DAY_MS = 86_400_000;
/** Rows one CSV export holds. */
export const EMAIL_TRACKS_EXPORT_MAX = 50_000;

export type { EmailTracksFilter };

/**
 * The open/click list (`/data/emailTracks`, SendCloud `openandclick/list`): the open and click
 * events of the mail event log, newest first, over at most the last six months (product-spec §9).
 */
export class EmailTracksService {
  private readonly database: Database;
  private readonly now: () => number;

  constructor(database: Database, now: () => number = Date.now) {
    this.database = database;
    this.now = now;
  }

  /** The console's filter: the last 7 days when no range is given. */
  filterOf(query: EmailTracksQuery): EmailTracksFilter {
    const to = query.endTime ?? this.now();
    const from = query.startTime ?? to - 7 * DAY_MS;
    return {
      from,
      to,
      email: query.email?.toLowerCase(),
      trackType: query.trackType,
      apiUserIds: query.apiUserId ? [query.apiUserId] : undefined,
      labelIds: query.labelId ? [query.labelId] : undefined,
    };
  }

  async query(
    { accountId }: Caller,
    filter: EmailTracksFilter,
    offset: number,
    limit: number,
  ): Promise<{ rows: EmailTrackView[]; total: number }> {
    this.checkRange(filter);
    const [rows, total] = await Promise.all([
      repo.listEmailTracks(this.database.db, accountId, filter, offset, limit),
      repo.countEmailTracks(this.database.db, accountId, filter),
    ]);
    return { rows: rows.map(toView), total };
  }

  async exportCsv({ accountId }: Caller, filter: EmailTracksFilter): Promise<string> {
    const { rows } = await this.query({ accountId }, filter, 0, EMAIL_TRACKS_EXPORT_MAX);
    const header = ['time', 'type', 'email', 'url', 'apiUser', 'ip', 'browser', 'os', 'bot', 'first'];
    const lines = rows.map((r) =>
      [
        new Date(r.at).toISOString(),
        r.trackType,
        r.email,
        r.url ?? '',
        r.apiUser ?? '',
        r.ip ?? '',
        [r.explorerName, r.explorerVer].filter(Boolean).join(' '),
        [r.oSName, r.oSVer].filter(Boolean).join(' '),
        r.bot ? 'yes' : 'no',
        r.first ? 'yes' : 'no',
      ]
        .map(csvCell)
        .join(','),
    );
    return `\uFEFF${[header.join(','), ...lines].join('\r\n')}\r\n`;
  }

  /** The account's API_USERs of these names (SendCloud's apiUserList). */
  async apiUserIdsByName({ accountId }: Caller, names: string[]): Promise<number[]> {
    return apiUserIdsByName(this.database, accountId, names);
  }

  private checkRange(filter: EmailTracksFilter): void {
    if (filter.from < this.now() - TRACK_QUERY_MAX_MS) {
      throw new AppError('COMMON_VALIDATION_FAILED', {}, [
        { field: 'startTime', message: 'trackRangeTooLong' },
      ]);
    }
  }
}

type Row = {
  id: number;
  at: number;
  kind: string;
  recipient: string;
  email_id: string | null;
  api_user_id: number | null;
  label_id: number | null;
  data: string | null;
  api_user: string | null;
};

function toView(row: Row): EmailTrackView {
  const data = row.data ? (JSON.parse(row.data) as MailEventData) : {};
  return {
    id: Number(row.id),
    at: Number(row.at),
    trackType: row.kind as TrackType,
    email: row.recipient,
    emailId: row.email_id,
    url: data.url ?? null,
    apiUserId: row.api_user_id === null ? null : Number(row.api_user_id),
    apiUser: row.api_user,
    labelId: row.label_id === null ? null : Number(row.label_id),
    ip: data.ip ?? null,
    userAgent: data.userAgent ?? null,
    explorerName: data.explorerName ?? null,
    explorerVer: data.explorerVer ?? null,
    oSName: data.oSName ?? null,
    oSVer: data.oSVer ?? null,
    bot: data.bot === true,
    first: data.first === true,
  };
}

function csvCell(value: string): string {
  // A leading =, +, - or @ would be a formula in a spreadsheet.
  const safe = /^[=+\-@]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
