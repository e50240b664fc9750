/**
 * Operators' command line, for deployments where mail cannot be delivered yet (so activation
 * and reset links cannot reach anyone) and for looking at a running cluster:
 *
 *   npm run herald -- accounts:create <username> --email <email> [--phone <p>] [--password <p>] [--active]
 *   npm run herald -- accounts:activate <username>
 *   npm run herald -- accounts:suspend|accounts:freeze|accounts:resume <username>
 *   npm run herald -- accounts:reset-password <username> [--password <p>]
 *   npm run herald -- accounts:plan <username> free|paid
 *   npm run herald -- accounts:quota <username> <emails a day>|default
 *   npm run herald -- accounts:raise <username> <extra emails a day>
 *   npm run herald -- accounts:usage <username>
 *   npm run herald -- accounts:certify <username> none|personal|enterprise
 *   npm run herald -- ledger:adjust <username> <yuan> --reason <text> [--key <idempotency key>]
 *   npm run herald -- ledger:balance <username>
 *   npm run herald -- prices | prices:set <code> <fen> [--unit 1|10|100|1000]
 *   npm run herald -- payments | payments:set alipay|paypal <settings.json> [--disable]
 *   npm run herald -- recharge:offline <username> <yuan> --remitter <name> --ref <bank reference>
 *   npm run herald -- vouchers:issue <username>|--bare <yuan> [--count <n>] [--reason <text>]
 *   npm run herald -- vouchers [<username>]
 *   npm run herald -- packages:grant <username> <price code> <units> [--months <n>]
 *   npm run herald -- packages [<username>]
 *   npm run herald -- ips | ips:add <address> | ips:assign <purchase id> [<address>]
 *   npm run herald -- sms:blocklist [--search <digits>]
 *   npm run herald -- sms:blocklist-add <phone> [--reason <text>] [--days <n>]
 *   npm run herald -- sms:blocklist-remove <phone>
 *   npm run herald -- sms:blocklist-import <file.csv|txt> [--reason <text>]
 *   npm run herald -- sms:blocklist-export [<file>]
 *   npm run herald -- nodes
 *   npm run herald -- queue:counts
 *
 * It reads the same configuration as the server (DATABASE_URL, HERALD_DATA_DIR, REDIS_URL).
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import {
  type AdminAccountView,
  AppError,
  accountCertificationSchema,
  accountPlanSchema,
  beijingDateTime,
  dailyQuotaSchema,
  emailSchema,
  fenToYuan,
  formatMessage,
  isStrongPassword,
  QUOTA_RAISES_PER_MONTH,
  quotaRaiseSchema,
  SMS_BLOCKLIST_DAYS_MAX,
  type SmsPriceView,
  smsBlocklistAddSchema,
  smsBlocklistQuerySchema,
  userNameSchema,
  validationMessage,
} from '@herald/shared';
import { ConfigError, loadConfig } from './config.ts';
import { AccountPlansService } from './core/accounts/account-plans.service.ts';
import { AccountStates } from './core/accounts/account-states.ts';
import { AccountsService } from './core/accounts/accounts.service.ts';
import { generatePassword } from './core/accounts/platform-operator.ts';
import { hashPassword } from './core/auth/password.ts';
import { DedicatedIpsService } from './core/dedicated-ips/dedicated-ips.service.ts';
import { LedgerService } from './core/ledger/ledger.service.ts';
import { NodesService } from './core/nodes/nodes.service.ts';
import { PaymentSettingsService } from './core/recharges/payment-settings.service.ts';
import { RechargesService } from './core/recharges/recharges.service.ts';
import { type CarrierView, SmsCarriersService } from './core/sms-carriers/sms-carriers.service.ts';
import { SmsComplianceService } from './core/sms-compliance/sms-compliance.service.ts';
import { SmsBlocklistService } from './core/sms-interception/sms-blocklist.service.ts';
import { SmsPricesService } from './core/sms-prices/sms-prices.service.ts';
import { BenefitPackagesService } from './core/vouchers/packages.service.ts';
import { VouchersService } from './core/vouchers/vouchers.service.ts';
import { type Database, openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { keepDataPrivate } from './lib/private-files.ts';
import { loadSecretKey, SecretBox } from './lib/secret-box.ts';
import { createLogger } from './logger.ts';
import { createQueueBackend } from './queue/create-queue.ts';
import { QUEUE_NAMES } from './queue/names.ts';

const USAGE = `usage: npm run herald -- <command> [arguments]
  accounts:create <username> --email <email> [--phone <phone>] [--password <password>] [--active]
  accounts:activate <username>
  accounts:suspend <username>   the user's account sends nothing and cannot log in; its queued mail is held
  accounts:freeze <username>    the account sends nothing (it can still log in); its queued mail is held
  accounts:resume <username>    the account is active again; its held mail goes out
  accounts:reset-password <username> [--password <password>]
  accounts:plan <username> free|paid      the account's plan (free: 10 emails a day unless it has its own quota)
  accounts:quota <username> <n>|default   the account's own daily quota, or back to the plan's default
  accounts:raise <username> <extra>       a temporary increase: <extra> more emails a day, today and tomorrow
                                          (Beijing time); twice a month at most
  accounts:usage <username>               plan, quota, today's usage and temporary increases
  accounts:certify <username> none|personal|enterprise
                                          the certification mark SMS sending reads (SMS and voice
                                          need enterprise) until certification is built
  ledger:adjust <username> <yuan> --reason <text> [--key <key>]
                                          credits (or, negative, debits) the account's balance with a
                                          reason; the same --key again changes nothing; a debit
                                          goes after --: ledger:adjust <username> --reason <text> -- -0.5
  ledger:balance <username>               the balance and the latest ledger entries
  prices                                  the price list charging reads (fen per unit items)
  prices:set <code> <fen> [--unit 1|10|100|1000]
                                          e.g. prices:set email 100 --unit 1000 (1 yuan per 1,000 mails)
  payments                                the payment providers' settings (never a key)
  payments:set alipay|paypal <settings.json> [--disable]
                                          sets a provider from a JSON file, sealed at rest:
                                          alipay {appId, sellerId, appPrivateKey, alipayPublicKey, gateway}
                                          paypal {clientId, clientSecret, webhookId, apiBase, currency, rateFen}
                                          (rateFen: fen of CNY one unit of currency buys); a key or
                                          secret left out keeps the stored one
  recharge:offline <username> <yuan> --remitter <name> --ref <bank reference> [--note <text>]
                                          records a bank transfer that arrived: the balance is
                                          credited once per reference, a free account becomes paid
  vouchers:issue <username>|--bare <yuan> [--count <n>] [--reason <text>]
                                          issues vouchers (valid 3 months) to the account, or bare
                                          codes anyone can claim once; prints the codes
  vouchers [<username>]                   the latest vouchers, of every account or of one
  packages:grant <username> <price code> <units> [--months <n>] [--reason <text>]
                                          a benefit package, e.g. packages:grant ann email 1000
                                          --months 3: charging uses it before the balance
  packages [<username>]                   benefit packages, of every account or of one
  sms:carrier <name> <smpp://host:port|cmpp://host:port?version=3.0|mm7://host:port/path?vaspId=…&reportPort=…|sip://host:port?from=…> --system-id <id> --password <secret>
              [--source <sender id>] [--per-second <n>]
                                          adds a carrier connection, or changes the one of that name;
                                          ?connections=N (1-16) opens N connections under the account,
                                          --per-second then applies to each
  sms:route <carrier> <CN|US|…|*> [--prefix <digits>] [--kind sms|voice|mms] [--priority <n>]
                                          sends a country's numbers (or every country's) to the carrier;
                                          several routes fail over in priority order
  sms:carriers                            carriers with their routes
  sms:carrier-enable|disable|remove <name>
  sms:price <country> <yuan per part> [--sender any|numeric|alphanumeric] [--sender-id <name>]
                                          the international SMS price of a country (e.g. US 0.35) and
                                          the sender id it takes; the public price query reads it
  sms:prices                              the priced countries
  sms:price-remove <country>
  sms:blocklist [--search <digits>]       the global SMS interception list (every account's SMS to
                                          these numbers stops with 410): the newest 100 entries, or
                                          those whose number holds the digits
  sms:blocklist-add <phone> [--reason <text>] [--days <n>]
                                          puts a number on it, for good or for n days (a number
                                          without + or 00 is a mainland one)
  sms:blocklist-remove <phone>
  sms:blocklist-import <file.csv|txt> [--reason <text>]
                                          a number a line (a csv's first column), all or nothing;
                                          prints what was new, already there, repeated, invalid
  sms:blocklist-export [<file>]           the list as CSV, to the file or to standard output
  ips                                     the dedicated IP pool and every purchase (waiting ones first)
  ips:add <address>                       adds a free address to the dedicated IP pool
  ips:assign <purchase id> [<address>]    gives a waiting purchase the address (a free pool address),
                                          or the oldest free one; its 7 days for the A record start
  nodes
  queue:counts`;

const out = (line: string) => process.stdout.write(`${line}\n`);

async function run(database: Database, argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      phone: { type: 'string' },
      password: { type: 'string' },
      active: { type: 'boolean', default: false },
      'system-id': { type: 'string' },
      source: { type: 'string' },
      'per-second': { type: 'string' },
      prefix: { type: 'string' },
      kind: { type: 'string' },
      priority: { type: 'string' },
      sender: { type: 'string' },
      'sender-id': { type: 'string' },
      reason: { type: 'string' },
      key: { type: 'string' },
      unit: { type: 'string' },
      disable: { type: 'boolean', default: false },
      remitter: { type: 'string' },
      ref: { type: 'string' },
      note: { type: 'string' },
      bare: { type: 'boolean', default: false },
      count: { type: 'string' },
      months: { type: 'string' },
      search: { type: 'string' },
      days: { type: 'string' },
    },
  });
  const [command, name, argument] = positionals;
  const accounts = new AccountsService(database);
  const needName = () => {
    if (!name) throw new UsageError(`${command} needs a user name`);
    return name;
  };
  const newPassword = () => {
    const password = values.password ?? generatePassword();
    if (!isStrongPassword(password)) throw new UsageError(rule('passwordFormat'));
    return { password, generated: values.password === undefined };
  };

  switch (command) {
    case 'accounts:create': {
      const username = userNameSchema.safeParse(needName());
      if (!username.success) throw new UsageError(rule('userNameFormat'));
      const email = emailSchema.safeParse(values.email ?? '');
      if (!email.success) throw new UsageError(`--email: ${rule('emailFormat')}`);
      const { password, generated } = newPassword();
      const ctx = await accounts.createWithOwner({
        username: username.data,
        email: email.data,
        phone: values.phone ?? null,
        passwordHash: await hashPassword(password),
        status: values.active ? 'active' : 'inactive',
      });
      out(
        `created account ${ctx.accountId} with owner ${username.data} (${values.active ? 'active' : 'inactive'})`,
      );
      if (generated) out(`password: ${password}`);
      return 0;
    }
    case 'accounts:activate': {
      const user = await accounts.findByLoginName(needName());
      await accounts.setStatus(user, 'active');
      out(`${user.username}: ${user.status} → active`);
      return 0;
    }
    case 'accounts:suspend':
    case 'accounts:freeze':
    case 'accounts:resume': {
      const user = await accounts.findByLoginName(needName());
      const states = new AccountStates(database);
      const before = await states.current(user.accountId);
      const state =
        command === 'accounts:suspend' ? 'suspended' : command === 'accounts:freeze' ? 'frozen' : 'active';
      const { released } = await states.set(user, state);
      out(
        `${user.username}: account ${before} → ${state}${released ? `; ${released} held recipients released` : ''}`,
      );
      return 0;
    }
    case 'accounts:reset-password': {
      const user = await accounts.findByLoginName(needName());
      const { password, generated } = newPassword();
      await accounts.setPasswordHash(user, await hashPassword(password));
      out(`${user.username}: password reset${generated ? `; new password: ${password}` : ''}`);
      return 0;
    }
    case 'accounts:plan':
    case 'accounts:quota':
    case 'accounts:raise':
    case 'accounts:usage': {
      const user = await accounts.findByLoginName(needName());
      const plans = new AccountPlansService(database);
      const current = await plans.get(user.accountId);
      if (command === 'accounts:usage') {
        out(usageLine(current));
        return 0;
      }
      if (argument === undefined) throw new UsageError(`${command} needs a value`);
      let after: AdminAccountView;
      if (command === 'accounts:raise') {
        const input = quotaRaiseSchema.safeParse({ extra: argument });
        if (!input.success) throw new UsageError(rule('quotaRaiseRange'));
        after = await plans.grantRaise(null, user.accountId, input.data.extra);
      } else if (command === 'accounts:plan') {
        const plan = accountPlanSchema.safeParse(argument);
        if (!plan.success) throw new UsageError(rule('planChoice'));
        after = await plans.setLimits(null, user.accountId, {
          plan: plan.data,
          dailyQuota: current.dailyQuota,
        });
      } else {
        const quota = dailyQuotaSchema.safeParse(argument === 'default' ? null : argument);
        if (!quota.success) throw new UsageError(rule('dailyQuotaRange'));
        after = await plans.setLimits(null, user.accountId, { plan: current.plan, dailyQuota: quota.data });
      }
      out(usageLine(after));
      return 0;
    }
    case 'accounts:certify': {
      const user = await accounts.findByLoginName(needName());
      const level = accountCertificationSchema.safeParse(argument);
      if (!level.success) throw new UsageError(rule('certificationChoice'));
      const gates = await new SmsComplianceService(database).setCertification(
        null,
        user.accountId,
        level.data,
      );
      out(
        `${name}: certification ${gates.certification}; SMS filing ${gates.filingPassed ? 'approved' : 'not approved'}`,
      );
      return 0;
    }
    case 'sms:carrier':
    case 'sms:route':
    case 'sms:carriers':
    case 'sms:carrier-enable':
    case 'sms:carrier-disable':
    case 'sms:carrier-remove':
      return smsCarrierCommand(database, command, positionals.slice(1), values);
    case 'sms:price':
    case 'sms:prices':
    case 'sms:price-remove':
      return smsPriceCommand(database, command, positionals.slice(1), values);
    case 'sms:blocklist':
    case 'sms:blocklist-add':
    case 'sms:blocklist-remove':
    case 'sms:blocklist-import':
    case 'sms:blocklist-export':
      return smsBlocklistCommand(database, command, positionals[1], values);
    case 'ledger:adjust':
    case 'ledger:balance':
    case 'prices':
    case 'prices:set':
      return ledgerCommand(database, command, positionals.slice(1), values);
    case 'payments':
    case 'payments:set':
    case 'recharge:offline':
      return paymentsCommand(database, command, positionals.slice(1), values);
    case 'vouchers':
    case 'vouchers:issue':
    case 'packages':
    case 'packages:grant':
      return vouchersCommand(database, command, positionals.slice(1), values);
    case 'ips':
    case 'ips:add':
    case 'ips:assign':
      return ipsCommand(database, command, positionals.slice(1));
    case 'nodes': {
      for (const node of await new NodesService(database).list()) {
        out(
          `${node.state.padEnd(8)} ${node.roles.join(',').padEnd(18)} ${node.hostname} pid ${node.pid} since ${new Date(node.startedAt).toISOString()}`,
        );
      }
      return 0;
    }
    case 'queue:counts': {
      const queue = await createQueueBackend(config, database);
      try {
        for (const name of QUEUE_NAMES) out(`${name.padEnd(10)} ${JSON.stringify(await queue.counts(name))}`);
      } finally {
        await queue.close();
      }
      return 0;
    }
    default:
      throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
  }
}

class UsageError extends Error {}

const rule = (
  key:
    | 'passwordFormat'
    | 'userNameFormat'
    | 'emailFormat'
    | 'planChoice'
    | 'dailyQuotaRange'
    | 'quotaRaiseRange'
    | 'certificationChoice',
) => validationMessage(key, 'en');

/** One account's plan and quota as `accounts:usage` and the changing commands print them. */
function usageLine(a: AdminAccountView): string {
  const quota = a.dailyQuota === null ? 'plan default' : String(a.dailyQuota);
  const today = a.limit === null ? `${a.used} sent, no limit` : `${a.used} of ${a.limit} sent`;
  const raise = a.raise ? `+${a.raise.extra} a day until ${a.raise.toDay}` : 'none';
  return `${a.userName}: plan ${a.plan}, daily quota ${quota}; today (${a.day}) ${today}; temporary increase ${raise} (${a.raisesThisMonth} of ${QUOTA_RAISES_PER_MONTH} this month)`;
}

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig(process.env, []);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`herald: ${error.message}\n`);
  process.exit(2);
}
keepDataPrivate(config.dataDir);
const database = openDatabase(config.database);
let code = 1;
try {
  await migrateToLatest(database);
  code = await run(database, process.argv.slice(2));
} catch (error) {
  if (error instanceof UsageError) process.stderr.write(`herald: ${error.message}\n${USAGE}\n`);
  else if (error instanceof AppError)
    process.stderr.write(`herald: ${formatMessage(error.code, 'en', error.params)}\n`);
  else if (error instanceof Error && /unique|UNIQUE/.test(error.message)) {
    process.stderr.write('herald: that user name or email is already used\n');
  } else throw error;
  code = 2;
} finally {
  await database.close();
}
process.exit(code);

async function smsCarrierCommand(
  database: Database,
  command: string,
  args: (string | undefined)[],
  values: Record<string, string | boolean | undefined>,
): Promise<number> {
  const carriers = new SmsCarriersService(database, new SecretBox(loadSecretKey(config)));
  const [name, second] = args;
  const show = (c: CarrierView) =>
    out(
      `${c.enabled ? 'enabled ' : 'disabled'} ${c.name} ${c.url} system_id ${c.systemId} source ${c.sourceAddr || '-'} ${c.perSecond}/s routes ${
        c.routes
          .map(
            (r) =>
              `${r.country}${r.prefix ? `+${r.prefix}` : ''}${r.kind === '*' ? '' : `(${r.kind})`}#${r.priority}`,
          )
          .join(' ') || '-'
      }`,
    );
  const int = (value: unknown, option: string) => {
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) throw new UsageError(`--${option} must be a whole number`);
    return n;
  };
  if (command === 'sms:carriers') {
    for (const c of await carriers.list()) show(c);
    return 0;
  }
  if (!name) throw new UsageError(`${command} needs a carrier name`);
  if (command === 'sms:carrier') {
    if (!second) throw new UsageError('sms:carrier needs the carrier URL');
    const systemId = values['system-id'];
    const password = values.password;
    if (typeof systemId !== 'string' || typeof password !== 'string') {
      throw new UsageError('sms:carrier needs --system-id and --password');
    }
    show(
      await carriers.save({
        name,
        url: second,
        systemId,
        password,
        sourceAddr: typeof values.source === 'string' ? values.source : undefined,
        perSecond: int(values['per-second'], 'per-second'),
      }),
    );
  } else if (command === 'sms:route') {
    if (!second) throw new UsageError('sms:route needs a country (two letters, or *)');
    const kind = values.kind;
    if (kind !== undefined && !['sms', 'voice', 'mms', '*'].includes(String(kind))) {
      throw new UsageError('--kind is sms, voice, mms or *');
    }
    show(
      await carriers.addRoute({
        carrier: name,
        country: second,
        prefix: typeof values.prefix === 'string' ? values.prefix : undefined,
        kind: kind as 'sms' | undefined,
        priority: int(values.priority, 'priority'),
      }),
    );
  } else if (command === 'sms:carrier-remove') {
    await carriers.remove(name);
    out(`removed ${name}`);
  } else {
    show(await carriers.setEnabled(name, command === 'sms:carrier-enable'));
  }
  return 0;
}

async function smsPriceCommand(
  database: Database,
  command: string,
  args: (string | undefined)[],
  values: Record<string, string | boolean | undefined>,
): Promise<number> {
  const prices = new SmsPricesService(database);
  const show = (p: SmsPriceView) =>
    out(
      `${p.country} ${p.dialCode} ${p.name}: ${p.price ?? '-'} yuan/part, sender ${p.senderRule ?? '-'}${p.senderId ? ` "${p.senderId}"` : ''}`,
    );
  const [country, price] = args;
  if (command === 'sms:prices') {
    for (const p of await prices.list()) show(p);
    return 0;
  }
  if (!country) throw new UsageError(`${command} needs a country (two letters)`);
  if (command === 'sms:price-remove') {
    await prices.remove(country);
    out(`removed ${country.toUpperCase()}`);
    return 0;
  }
  const yuan = Number(price);
  if (price === undefined || !Number.isFinite(yuan) || yuan < 0) {
    throw new UsageError('sms:price needs the price of one part in yuan, e.g. 0.35');
  }
  show(
    await prices.set({
      country,
      priceMilli: Math.round(yuan * 1000),
      senderRule: (values.sender as 'any' | undefined) ?? 'any',
      senderId: typeof values['sender-id'] === 'string' ? values['sender-id'] : null,
    }),
  );
  return 0;
}

async function smsBlocklistCommand(
  database: Database,
  command: string,
  arg: string | undefined,
  values: Record<string, string | boolean | undefined>,
): Promise<number> {
  const blocklist = new SmsBlocklistService(database);
  const reason = typeof values.reason === 'string' ? values.reason : undefined;
  const when = (at: number) => beijingDateTime(at).slice(0, 16);
  if (command === 'sms:blocklist') {
    const search = smsBlocklistQuerySchema.shape.search.safeParse(values.search);
    if (!search.success) throw new UsageError('--search takes digits');
    const { list, total } = await blocklist.list({ search: search.data, page: 1, pageSize: 100 });
    for (const e of list) {
      out(
        `${e.phone.padEnd(16)} ${e.source.padEnd(7)} until ${e.expiresAt === null ? 'removed'.padEnd(16) : when(e.expiresAt)} ${e.reason ?? ''}`,
      );
    }
    out(`${total} numbers${total > list.length ? ` (the newest ${list.length} shown)` : ''}`);
    return 0;
  }
  if (command === 'sms:blocklist-export') {
    const csv = await blocklist.exportCsv();
    if (arg) fs.writeFileSync(arg, csv);
    else process.stdout.write(csv.replace(/^\uFEFF/, ''));
    return 0;
  }
  if (!arg)
    throw new UsageError(`${command} needs ${command === 'sms:blocklist-import' ? 'a file' : 'a number'}`);
  if (command === 'sms:blocklist-add') {
    const input = smsBlocklistAddSchema.safeParse({ phones: arg, reason, days: values.days });
    if (!input.success)
      throw new UsageError(
        `--days is a whole number from 1 to ${SMS_BLOCKLIST_DAYS_MAX}; --reason at most 200 characters`,
      );
    const { added } = await blocklist.add([arg], input.data);
    const days = input.data.days;
    out(`${arg}: ${added ? 'added' : 'already listed, renewed'}${days ? ` for ${days} days` : ' for good'}`);
  } else if (command === 'sms:blocklist-remove') {
    out(`${await blocklist.removePhone(arg)} removed`);
  } else {
    const r = await blocklist.importFile({ filename: arg, content: fs.readFileSync(arg, 'utf8'), reason });
    out(
      `${r.lines} lines: ${r.imported} added, ${r.existing} already listed, ${r.duplicates} duplicates, ${r.invalid} invalid`,
    );
    for (const l of r.invalidLines) out(`  line ${l.line}: ${l.text}`);
  }
  return 0;
}

async function paymentsCommand(
  database: Database,
  command: string,
  args: (string | undefined)[],
  values: Record<string, string | boolean | undefined>,
): Promise<number> {
  const settings = new PaymentSettingsService(database, new SecretBox(loadSecretKey(config)));
  const [first, second] = args;
  if (command === 'recharge:offline') {
    if (!first || !second) throw new UsageError('recharge:offline needs a user name and an amount in yuan');
    const user = await new AccountsService(database).findByLoginName(first);
    const recharges = new RechargesService({
      database,
      settings,
      publicUrl: config.publicUrl,
      logger: createLogger({ level: 'warn', roles: ['cli'] }),
      onFunded: () => {},
    });
    const order = await recharges.recordOffline(null, user.accountId, {
      amount: second,
      remitter: values.remitter,
      bankRef: values.ref,
      note: values.note,
    });
    const balance = await new LedgerService(database).balance({ accountId: user.accountId });
    out(
      `${first}: ${fenToYuan(order.amountFen)} yuan from ${values.remitter} (${order.orderNo}) ${order.status}; balance ${fenToYuan(balance)} yuan`,
    );
    return 0;
  }
  if (command === 'payments:set') {
    if ((first !== 'alipay' && first !== 'paypal') || !second) {
      throw new UsageError('payments:set needs alipay or paypal and a JSON file');
    }
    const input = JSON.parse(fs.readFileSync(second, 'utf8')) as Record<string, unknown>;
    await settings.set(first, { ...input, enabled: values.disable !== true });
  }
  for (const v of await settings.views()) {
    out(
      v.configured
        ? `${v.provider.padEnd(7)} ${v.enabled ? 'enabled ' : 'disabled'} ${v.appId} ${v.endpoint} ${v.currency} at ${v.rateFen} fen`
        : `${v.provider.padEnd(7)} not set up`,
    );
  }
  return 0;
}

async function ledgerCommand(
  database: Database,
  command: string,
  args: (string | undefined)[],
  values: Record<string, string | boolean | undefined>,
): Promise<number> {
  const ledger = new LedgerService(database);
  const [first, second] = args;
  if (command === 'prices' || command === 'prices:set') {
    if (command === 'prices:set') {
      if (!first || second === undefined) throw new UsageError('prices:set needs a price code and fen');
      const current = (await ledger.prices()).find((p) => p.code === first);
      await ledger.setPrice(first, { fen: second, unit: values.unit ?? current?.unit ?? 1 });
    }
    for (const p of await ledger.prices()) out(`${p.code.padEnd(18)} ${p.fen} fen per ${p.unit}`);
    return 0;
  }
  if (!first) throw new UsageError(`${command} needs a user name`);
  const user = await new AccountsService(database).findByLoginName(first);
  const account = { accountId: user.accountId };
  if (command === 'ledger:adjust') {
    const yuan = second ?? '';
    if (!/^-?\d+(\.\d{1,2})?$/.test(yuan))
      throw new UsageError('ledger:adjust needs an amount in yuan, e.g. 100 or -0.5');
    const [whole = '0', cents = ''] = yuan.replace('-', '').split('.');
    const fen = (Number(whole) * 100 + Number(cents.padEnd(2, '0'))) * (yuan.startsWith('-') ? -1 : 1);
    const balance = await ledger.adjust(null, user.accountId, {
      amountFen: fen,
      reason: values.reason ?? '',
      idempotencyKey: typeof values.key === 'string' ? values.key : undefined,
    });
    out(`${first}: adjusted by ${fenToYuan(fen)} yuan; balance ${fenToYuan(balance)} yuan`);
    return 0;
  }
  out(`${first}: balance ${fenToYuan(await ledger.balance(account))} yuan`);
  for (const e of await ledger.entries(account, 20)) {
    out(
      `${new Date(e.createdAt).toISOString()} ${e.kind.padEnd(10)} ${fenToYuan(e.amountFen).padStart(10)} ${e.reason}`,
    );
  }
  return 0;
}

async function vouchersCommand(
  database: Database,
  command: string,
  args: (string | undefined)[],
  values: Record<string, string | boolean | undefined>,
): Promise<number> {
  const vouchers = new VouchersService(database);
  const packages = new BenefitPackagesService(database);
  const accountOf = async (name: string | undefined) =>
    name === undefined ? undefined : (await new AccountsService(database).findByLoginName(name)).accountId;
  const day = (at: number) => beijingDateTime(at).slice(0, 16);
  if (command === 'vouchers:issue') {
    const bare = values.bare === true;
    const [first, second] = args;
    const yuan = bare ? first : second;
    if ((!bare && !first) || !yuan) {
      throw new UsageError('vouchers:issue needs a user name (or --bare) and an amount in yuan');
    }
    const issued = await vouchers.issue(null, {
      accountId: bare ? null : await accountOf(first),
      amount: yuan,
      count: values.count ?? 1,
      reason: values.reason ?? '',
    });
    for (const v of issued) {
      out(
        `${v.code} ${fenToYuan(v.amountFen)} yuan ${bare ? 'bare' : first} until ${day(v.expiresAt)} (Beijing)`,
      );
    }
    return 0;
  }
  if (command === 'vouchers') {
    const { list, total } = await vouchers.listAll({
      pageNum: 1,
      pageSize: 100,
      accountId: await accountOf(args[0]),
    });
    for (const v of list) {
      out(
        `${String(v.id).padStart(6)} ${v.code} ${fenToYuan(v.amountFen).padStart(10)} ${v.status.padEnd(7)} ${(v.username ?? '(bare)').padEnd(20)} until ${day(v.expiresAt)} ${v.reason}`,
      );
    }
    out(`${total} vouchers`);
    return 0;
  }
  if (command === 'packages:grant') {
    const [name, code, units] = args;
    if (!name || !code || !units)
      throw new UsageError('packages:grant needs a user name, a price code and units');
    const granted = await packages.grant(null, {
      accountId: await accountOf(name),
      type: code,
      quota: units,
      months: values.months ?? 1,
      reason: values.reason ?? '',
    });
    out(
      `${name}: ${granted.quota} ${granted.type} until ${day(granted.expiresAt)} (Beijing), package ${granted.id}`,
    );
    return 0;
  }
  for (const p of await packages.listAll(await accountOf(args[0]))) {
    out(
      `${String(p.id).padStart(6)} ${p.username.padEnd(20)} ${p.type.padEnd(18)} ${p.used}/${p.quota} ${p.status.padEnd(9)} until ${day(p.expiresAt)}`,
    );
  }
  return 0;
}

async function ipsCommand(
  database: Database,
  command: string,
  args: (string | undefined)[],
): Promise<number> {
  const ips = new DedicatedIpsService({ database, logger: createLogger({ level: 'warn', roles: ['cli'] }) });
  const [first, second] = args;
  const when = (at: number | null) => (at === null ? '-' : beijingDateTime(at).slice(0, 16));
  if (command === 'ips:add') {
    if (!first) throw new UsageError('ips:add needs an address');
    const added = await ips.addToPool(first);
    out(`${added.address} added to the pool (${added.status})`);
    return 0;
  }
  if (command === 'ips:assign') {
    const id = Number(first);
    if (!Number.isSafeInteger(id) || id < 1) throw new UsageError('ips:assign needs a purchase id');
    const p = await ips.assign(id, second);
    out(
      `purchase ${p.id} (${p.userName}, ${p.domain}): ${p.address}; A record ${p.aRecord.host} -> ${p.address} by ${when(p.aRecord.deadline)}`,
    );
    return 0;
  }
  out('pool:');
  for (const a of await ips.pool())
    out(`  ${a.address.padEnd(40)} ${a.status.padEnd(9)} ${a.purchaseId ?? ''}`);
  out('purchases:');
  const all = await ips.all();
  const order = (s: string) => (s === 'pending' ? 0 : 1);
  for (const p of [...all].sort((a, b) => order(a.status) - order(b.status))) {
    out(
      `  ${String(p.id).padStart(6)} ${p.status.padEnd(8)} ${p.userName} ${p.domain} ${p.address ?? '(waiting for an address)'} ${p.months} months, A record ${p.aRecord.seenAt ? 'seen' : `due ${when(p.aRecord.deadline)}`}, ends ${when(p.endsAt)}`,
    );
  }
  return 0;
}
