import { randomInt } from 'node:crypto';
import {
  AppError,
  MAIL_ROUTE_MAX,
  type MailRouteInput,
  type MailRouteView,
  mailRouteInputSchema,
} from '@herald/shared';
import { type ParsedMail, simpleParser } from 'mailparser';
import type { Database } from '../../db/database.ts';
import { hashSecret, sameHash } from '../../lib/secret-hash.ts';
import type { Caller } from '../context.ts';
import * as deliveries from '../webhooks/deliveries.repo.ts';
import * as webhooks from '../webhooks/webhooks.repo.ts';
import * as repo from './mail-routes.repo.ts';
import { bestRule } from './route-match.ts';

const CACHE_MS = 5_000;
const CODE_TTL_MS = 10 * 60_000;
const CODE_INTERVAL_MS = 60_000;
/** The longest raw message a push carries; the rest of a larger mail is cut. */
const RAW_IN_PUSH = 1_000_000;

/** Where a routed recipient goes, as the inbound MX asks at RCPT. */
export interface RoutedRecipient {
  address: string;
  route: repo.RouteRow;
}

/** What the routes hand mail to a mailbox with: Herald's own system mail (compose.ts wires it). */
export type RouteMailer = (mail: {
  to: string;
  subject: string;
  text: string;
  html?: string;
}) => Promise<unknown>;

const view = (row: repo.RouteRow): MailRouteView => ({
  id: Number(row.id),
  domain: row.domain,
  match: row.match as MailRouteView['match'],
  expression: row.expression,
  target: row.target as MailRouteView['target'],
  url: row.url,
  email: row.email,
  createdAt: Number(row.created_at),
});

/**
 * Receive routes (issue 21): an account's rules for mail arriving at Herald's inbound MX for one
 * of its domains that passed verification (its MX record points here). A recipient is matched by
 * its local part (the most specific rule wins); unmatched recipients are refused at RCPT. A URL
 * route pushes the parsed mail as SendCloud's `route` event through its own webhook (signed,
 * retried, logged by the dispatcher), and the account's email webhooks subscribed to `route` get
 * it too; a mailbox route forwards the mail, inline, through Herald's system mail, to a mailbox
 * proved by a code it received.
 */
export class MailRoutesService {
  private readonly database: Database;
  private readonly mailer: RouteMailer;
  private readonly now: () => number;
  private readonly cache = new Map<string, { rows: repo.RouteRow[]; until: number }>();

  constructor(database: Database, mailer: RouteMailer, now: () => number = Date.now) {
    this.database = database;
    this.mailer = mailer;
    this.now = now;
  }

  async list({ accountId }: Caller): Promise<MailRouteView[]> {
    return (await repo.listRoutes(this.database, accountId)).map(view);
  }

  async create({ accountId }: Caller, input: MailRouteInput): Promise<MailRouteView> {
    const value = mailRouteInputSchema.parse(input);
    if ((await repo.countRoutes(this.database, accountId)) >= MAIL_ROUTE_MAX) {
      throw new AppError('MAIL_ROUTE_LIMIT', { max: MAIL_ROUTE_MAX });
    }
    if (!(await repo.ownsUsableDomain(this.database, accountId, value.domain))) {
      throw new AppError('MAIL_ROUTE_DOMAIN', { domain: value.domain });
    }
    if (
      (await repo.routesOfDomain(this.database, value.domain)).some(
        (r) => r.match === value.match && r.expression === value.expression,
      )
    ) {
      throw new AppError('MAIL_ROUTE_EXISTS');
    }
    if (value.target === 'email')
      await this.useCode(accountId, value.email as string, value.verifyCode as string);
    const now = this.now();
    const id = await this.database.db.transaction().execute(async (trx) => {
      const routeId = await repo.insertRoute(trx, {
        account_id: accountId,
        domain: value.domain,
        match: value.match,
        expression: value.expression,
        target: value.target,
        url: value.target === 'url' ? (value.url as string) : null,
        email: value.target === 'email' ? (value.email as string) : null,
        created_at: now,
        updated_at: now,
      });
      if (value.target === 'url') {
        const hookId = await webhooks.insert(
          { ...this.database, db: trx },
          accountId,
          { url: value.url as string, events: 'route', api_user_id: routeId, app_key_sealed: null },
          now,
          'route',
        );
        await repo.setRouteWebhook(trx, routeId, hookId);
      }
      return routeId;
    });
    this.cache.delete(value.domain);
    return view((await repo.findRoute(this.database, accountId, id)) as repo.RouteRow);
  }

  async remove({ accountId }: Caller, id: number): Promise<void> {
    const row = await repo.findRoute(this.database, accountId, id);
    if (!row) throw new AppError('MAIL_ROUTE_NOT_FOUND');
    // The route first, so the inbound MX stops taking its mail; then its webhook and queued pushes.
    await repo.deleteRoute(this.database.db, accountId, id);
    if (row.webhook_id !== null) await webhooks.remove(this.database, accountId, Number(row.webhook_id));
    this.cache.delete(row.domain);
  }

  /** Sends a 6-digit code to the mailbox a route is to forward to (once a minute at most). */
  async sendCode({ accountId }: Caller, email: string): Promise<void> {
    const now = this.now();
    const earlier = await repo.findCode(this.database, accountId, email);
    if (earlier && now - Number(earlier.sent_at) < CODE_INTERVAL_MS)
      throw new AppError('MAIL_ROUTE_CODE_TOO_SOON');
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await repo.saveCode(this.database, {
      account_id: accountId,
      email,
      code_hash: hashSecret(`route:${accountId}:${email}`, code),
      expires_at: now + CODE_TTL_MS,
      sent_at: now,
    });
    await this.mailer({
      to: email,
      subject: `Herald 收信路由验证码 / receive route code: ${code}`,
      text: `您的收信路由验证码是 ${code}，10分钟内有效。\nYour receive route verification code is ${code}; it is valid for 10 minutes.`,
    });
  }

  /** The route a recipient of the inbound MX goes by, if any (read through a short cache). */
  async routeOf(address: string): Promise<RoutedRecipient | undefined> {
    const at = address.lastIndexOf('@');
    if (at <= 0) return undefined;
    const local = address.slice(0, at).toLowerCase();
    const domain = address.slice(at + 1).toLowerCase();
    const now = this.now();
    let hit = this.cache.get(domain);
    if (!hit || hit.until <= now) {
      hit = { rows: await repo.routesOfDomain(this.database, domain), until: now + CACHE_MS };
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(domain, hit);
    }
    const route = bestRule(hit.rows, local);
    return route ? { address, route } : undefined;
  }

  /**
   * Hands a routed mail on: one push per URL route (and to the account's webhooks that take
   * `route`), one forward per mailbox route. Committed before the MX answers 250.
   */
  async receive(raw: Buffer, recipients: RoutedRecipient[]): Promise<void> {
    if (recipients.length === 0) return;
    const mail = await simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true });
    const now = this.now();
    const forwards: Promise<unknown>[] = [];
    await this.database.db.transaction().execute(async (trx) => {
      for (const { address, route } of recipients) {
        const accountId = Number(route.account_id);
        const payload = JSON.stringify(routeFields(mail, raw, address));
        if (route.target === 'email' && route.email) {
          forwards.push(this.mailer(forwardOf(mail, route.email)));
          continue;
        }
        const hooks = [
          ...(route.webhook_id !== null ? [Number(route.webhook_id)] : []),
          ...(await webhooks.normalHooksOf(trx, [accountId], 'mail'))
            .filter((h) => h.events.split(',').includes('route'))
            .map((h) => Number(h.id)),
        ];
        await deliveries.enqueue(
          trx,
          hooks.map((webhookId) => ({
            account_id: accountId,
            webhook_id: webhookId,
            event: 'route' as const,
            event_id: now,
            recipient: address,
            payload,
            event_at: now,
          })),
          now,
        );
      }
    });
    await Promise.all(forwards);
  }

  private async useCode(accountId: number, email: string, code: string): Promise<void> {
    const row = await repo.findCode(this.database, accountId, email);
    const wanted = hashSecret(`route:${accountId}:${email}`, code);
    if (!row || Number(row.expires_at) < this.now() || !sameHash(row.code_hash, wanted)) {
      throw new AppError('MAIL_ROUTE_CODE_WRONG');
    }
    await repo.deleteCode(this.database, accountId, email);
  }
}

/** The `route` push of reference §9: the mail as the receiver reads it. */
function routeFields(mail: ParsedMail, raw: Buffer, to: string): Record<string, string> {
  const from = mail.from?.value[0];
  const toAddress = (Array.isArray(mail.to) ? mail.to[0] : mail.to)?.value[0];
  const headers: Record<string, string> = {};
  for (const line of mail.headerLines) headers[line.key] = line.line.slice(line.line.indexOf(':') + 1).trim();
  return {
    event: 'route',
    message: 'mx route',
    from: from?.address ?? '',
    fromname: from?.name ?? '',
    to,
    toname: toAddress?.name ?? '',
    subject: mail.subject ?? '',
    text: mail.text ?? '',
    html: typeof mail.html === 'string' ? mail.html : '',
    headers: JSON.stringify(headers),
    raw_message: raw.subarray(0, RAW_IN_PUSH).toString('utf8'),
  };
}

/** The mail forwarded inline: who sent it, when and to whom, then its text (and HTML). */
function forwardOf(mail: ParsedMail, to: string) {
  const head = [
    `From: ${mail.from?.text ?? ''}`,
    `Date: ${mail.date?.toISOString() ?? ''}`,
    `To: ${Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(', ') : (mail.to?.text ?? '')}`,
    `Subject: ${mail.subject ?? ''}`,
  ];
  const attachments = mail.attachments.map((a) => a.filename ?? 'attachment');
  if (attachments.length > 0) head.push(`Attachments (not forwarded): ${attachments.join(', ')}`);
  const text = `---------- Forwarded by a Herald receive route ----------\n${head.join('\n')}\n\n${mail.text ?? ''}`;
  return {
    to,
    subject: `Fwd: ${mail.subject ?? ''}`,
    text,
    ...(typeof mail.html === 'string' ? { html: mail.html } : {}),
  };
}
