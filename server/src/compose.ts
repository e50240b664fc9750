import type { Config } from './config.ts';
import { AccountTokensService } from './core/account-tokens/account-tokens.service.ts';
import { AccountPlansService } from './core/accounts/account-plans.service.ts';
import { AccountStates } from './core/accounts/account-states.ts';
import { AccountsService } from './core/accounts/accounts.service.ts';
import { ensurePlatformOperator } from './core/accounts/platform-operator.ts';
import { AddressListImportsService } from './core/address-lists/address-list-imports.service.ts';
import { AddressListsService } from './core/address-lists/address-lists.service.ts';
import { ApiUserAuth } from './core/api-users/api-user-auth.ts';
import { ApiUsersService } from './core/api-users/api-users.service.ts';
import { AuthService } from './core/auth/auth.service.ts';
import { HumanCheck } from './core/auth/human-check.ts';
import { CaptchaService } from './core/captcha/captcha.service.ts';
import { SliderService } from './core/captcha/slider.service.ts';
import { DashboardService } from './core/dashboard/dashboard.service.ts';
import { DedicatedIpsService } from './core/dedicated-ips/dedicated-ips.service.ts';
import { dkimKeysOf } from './core/domains/dkim-keys.ts';
import { DomainsService } from './core/domains/domains.service.ts';
import { EmailStatusService } from './core/email-status/email-status.service.ts';
import { ExportsService } from './core/exports/exports.service.ts';
import { GoogleAuthService } from './core/google-auth/google-auth.service.ts';
import { InvoicesService } from './core/invoices/invoices.service.ts';
import { IpWhitelistService } from './core/ip-whitelist/ip-whitelist.service.ts';
import { LabelsService } from './core/labels/labels.service.ts';
import { LedgerService } from './core/ledger/ledger.service.ts';
import { LoginProtection } from './core/login-protection/login-protection.service.ts';
import { LoginVerificationService } from './core/login-protection/login-verification.service.ts';
import { MailEventsService } from './core/mail-events/mail-events.service.ts';
import { MailListTasksService } from './core/mail-list-tasks/mail-list-tasks.service.ts';
import { MailRoutesService } from './core/mail-routes/mail-routes.service.ts';
import { MemberInvitations } from './core/members/member-invitations.service.ts';
import { MembersService } from './core/members/members.service.ts';
import { NodesService } from './core/nodes/nodes.service.ts';
import { NotificationsService } from './core/notifications/notifications.service.ts';
import { AccountDetailsService } from './core/profile/account-details.service.ts';
import { ProfileService } from './core/profile/profile.service.ts';
import { QueuesService } from './core/queues/queues.service.ts';
import { AccountSendPolicy } from './core/queues/send-policy.ts';
import { RateLimiter } from './core/rate-limit/rate-limiter.ts';
import { PaymentSettingsService } from './core/recharges/payment-settings.service.ts';
import { RechargesService } from './core/recharges/recharges.service.ts';
import { RegistrationService } from './core/registration/registration.service.ts';
import { IdentityCheck } from './core/security-settings/identity-check.ts';
import { SecuritySettingsService } from './core/security-settings/security-settings.service.ts';
import { SendService } from './core/send/send.service.ts';
import { TestSendService } from './core/send/test-send.service.ts';
import { SenderConfigsService } from './core/sender-configs/sender-configs.service.ts';
import { SensitiveVerificationService } from './core/sensitive-verification/sensitive-verification.service.ts';
import { SessionsService } from './core/sessions/sessions.service.ts';
import { SiteMessagesService } from './core/site-messages/site-messages.service.ts';
import { SmsCarriersService } from './core/sms-carriers/sms-carriers.service.ts';
import { SmsComplianceService } from './core/sms-compliance/sms-compliance.service.ts';
import { SmsContactImportsService } from './core/sms-contacts/sms-contact-imports.service.ts';
import { SmsContactsService } from './core/sms-contacts/sms-contacts.service.ts';
import { SmsContentViewService } from './core/sms-content-view/sms-content-view.service.ts';
import { SmsFilingReviewService } from './core/sms-filings/sms-filing-review.service.ts';
import { SmsFilingsService } from './core/sms-filings/sms-filings.service.ts';
import { SmsGatewayService } from './core/sms-gateway-users/sms-gateway.service.ts';
import { SmsGatewayUsersService } from './core/sms-gateway-users/sms-gateway-users.service.ts';
import { SmsBlocklistService } from './core/sms-interception/sms-blocklist.service.ts';
import { SmsInterceptionService } from './core/sms-interception/sms-interception.service.ts';
import { SmsLinksService } from './core/sms-links/sms-links.service.ts';
import { SmsMessagesService } from './core/sms-messages/sms-messages.service.ts';
import { SmsPricesService } from './core/sms-prices/sms-prices.service.ts';
import { SmsPausesService } from './core/sms-protection/sms-pauses.service.ts';
import { SmsProtectionService } from './core/sms-protection/sms-protection.service.ts';
import { SmsRepliesService } from './core/sms-replies/sms-replies.service.ts';
import { SmsSendService } from './core/sms-send/sms-send.service.ts';
import { CoreSmsSendSources } from './core/sms-send/sms-send-sources.ts';
import { SmsTestSendService } from './core/sms-send/sms-test-send.service.ts';
import { SmsSignReviewService } from './core/sms-signs/sms-sign-review.service.ts';
import { SmsSignsService } from './core/sms-signs/sms-signs.service.ts';
import { SmsTasksService } from './core/sms-tasks/sms-tasks.service.ts';
import { SmsTemplateReviewService } from './core/sms-templates/sms-template-review.service.ts';
import { SmsTemplatesService } from './core/sms-templates/sms-templates.service.ts';
import { SmsTemplatesApi } from './core/sms-templates/sms-templates-api.ts';
import { SmsUsersService } from './core/sms-users/sms-users.service.ts';
import { StatisticsService } from './core/statistics/statistics.service.ts';
import { SubscribeService } from './core/subscriptions/subscribe.service.ts';
import { SubscriptionsService } from './core/subscriptions/subscriptions.service.ts';
import { SuppressionService } from './core/suppression/suppression.service.ts';
import { SuppressionListsService } from './core/suppression/suppression-lists.service.ts';
import { TemplateReviewService } from './core/templates/template-review.service.ts';
import { TemplatesService } from './core/templates/templates.service.ts';
import { TimedTasksService } from './core/timed-tasks/timed-tasks.service.ts';
import { createTracking, type Tracking } from './core/tracking/create-tracking.ts';
import { trackingPlansOf } from './core/tracking/tracking-plans.ts';
import { TradeService } from './core/trade/trade.service.ts';
import { UnsubscribeService } from './core/unsubscribe/unsubscribe.service.ts';
import { UnsubscribePagesService } from './core/unsubscribe/unsubscribe-pages.service.ts';
import { UploadsService } from './core/uploads/uploads.service.ts';
import { UsersService } from './core/users/users.service.ts';
import { VerificationCodesService } from './core/verification/verification-codes.service.ts';
import { BenefitPackagesService } from './core/vouchers/packages.service.ts';
import { VouchersService } from './core/vouchers/vouchers.service.ts';
import { createWebhooks } from './core/webhooks/create-webhooks.ts';
import type { SmsHooksService } from './core/webhooks/sms-hooks.service.ts';
import type { WebhookDispatcher } from './core/webhooks/webhook-dispatcher.ts';
import type { WebhooksService } from './core/webhooks/webhooks.service.ts';
import { WechatService } from './core/wechat/wechat.service.ts';
import { type Database, openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { loadSecretKey, SecretBox } from './lib/secret-box.ts';
import { purposeKey } from './lib/signed-token.ts';
import { unsubscribeKey } from './lib/unsubscribe-token.ts';
import type { Logger } from './logger.ts';
import { createMetrics, type Metrics } from './metrics.ts';
import { DeliveryService } from './mta/pipeline/delivery.service.ts';
import { directMailTransport } from './mta/smtp-delivery.ts';
import { createQueueBackend, describeQueue } from './queue/create-queue.ts';
import { QUEUE_NAMES, QUEUES } from './queue/names.ts';
import type { QueueBackend } from './queue/queue.ts';
import { carrierOpener } from './sms/carriers/open-carrier.ts';
import { SmsDeliveryService } from './sms/sms-delivery.service.ts';

/**
 * The composition root: the database, the queue and every service, built once per process and
 * handed to the protocol adapters (HTTP, SMTP, workers). Adapters never build their own.
 */
export interface Core extends Tracking {
  config: Config;
  logger: Logger;
  database: Database;
  queue: QueueBackend;
  metrics: Metrics;
  nodes: NodesService;
  accounts: AccountsService;
  users: UsersService;
  sessions: SessionsService;
  auth: AuthService;
  /** Herald's own email and SMS (activation, password reset, verification codes). */
  notifications: NotificationsService;
  captcha: CaptchaService;
  slider: SliderService;
  rateLimiter: RateLimiter;
  verificationCodes: VerificationCodesService;
  /** Sign-up, activation, forgotten and changed passwords. */
  registration: RegistrationService;
  /** The user's own details and their changes. */
  profile: ProfileService;
  /** The account's holder type, company, person and notice address (`/userInfo/edited/*`). */
  accountDetails: AccountDetailsService;
  /** Slider and image-code checks of public forms (login, sign-up, password). */
  humanCheck: HumanCheck;
  /** Seals secrets kept at rest (TOTP secrets, DKIM keys) with the configured or generated key. */
  secretBox: SecretBox;
  /** The account's IP whitelist, enforced at login and by the session authenticator. */
  ipWhitelist: IpWhitelistService;
  googleAuth: GoogleAuthService;
  /** `/verify/*`: marks a session verified; requireRecentVerification guards sensitive changes. */
  sensitiveVerification: SensitiveVerificationService;
  /** Login protection, download and sensitive-operation verification switches. */
  securitySettings: SecuritySettingsService;
  /** The second step of a protected login (`/v3/user/loginVerify`). */
  loginVerification: LoginVerificationService;
  /** Teammates: invitations, types and levels, removal. */
  members: MembersService;
  /** WeChat quick login and binding (off unless HERALD_WECHAT_APP_ID and _SECRET are set). */
  wechat: WechatService;
  /** Checks apiUser + apiKey for /apiv2 and SMTP submission. */
  apiUserAuth: ApiUserAuth;
  /** The accept path of mail/send, mail/sendtemplate, SMTP submission and test send. */
  send: SendService;
  /** The console's test send over the same accept path. */
  testSend: TestSendService;
  /** API_USERs, their keys and the default senders (`/config/categories`, `/config/apikeys`). */
  apiUsers: ApiUsersService;
  smsUsers: SmsUsersService;
  /** CMPP_USERs and SMPP system ids of customers' systems (`/sms/gatewayUsers`); `login` for the gateway. */
  smsGatewayUsers: SmsGatewayUsersService;
  /** The gateway's submits, through the send path, and the reports and replies owed back. */
  smsGateway: SmsGatewayService;
  /** SMS signatures (`/sms/smsSigns`); `usable` gives the send path a passed one. */
  smsSigns: SmsSignsService;
  smsSignReview: SmsSignReviewService;
  /** SMS, voice and MMS templates (`/sms/smsTemplates`); `forSend`, `markSent` and `revertIdleMarketing` for sending. */
  /** The SMS API's template calls (smsapi/get|list|addsms|submitsms|updatesms|deletesms). */
  smsTemplatesApi: SmsTemplatesApi;
  smsTemplates: SmsTemplatesService;
  /** The operators' review of SMS templates, beside the email templates' in /admin/templates. */
  smsTemplateReview: SmsTemplateReviewService;
  /** The account's SMS filing (`/sms/filing`). */
  smsFilings: SmsFilingsService;
  smsFilingReview: SmsFilingReviewService;
  /** Certification and filing as every SMS gate reads them (`gates`); the operators' certification mark. */
  smsCompliance: SmsComplianceService;
  /** Files uploaded for signatures and filings (png, jpeg, pdf by their bytes). */
  smsUploads: UploadsService;
  smsCarriers: SmsCarriersService;
  smsSendSources: CoreSmsSendSources;
  smsSend: SmsSendService;
  /** SMS tasks (`/sms/smsTasks`, smsapi/sendContactListTask); `runDue` and `finishSent` for the worker's runner. */
  smsTasks: SmsTasksService;
  smsMessages: SmsMessagesService;
  smsTestSend: SmsTestSendService;
  smsProtection: SmsProtectionService;
  smsPauses: SmsPausesService;
  smsReplies: SmsRepliesService;
  smsLinks: SmsLinksService;
  /** The SMS content view switch: whose SMS text the status list and export may carry. */
  smsContentView: SmsContentViewService;
  smsPrices: SmsPricesService;
  mailRoutes: MailRoutesService;
  smsInterception: SmsInterceptionService;
  /** The operator's hand on the platform's global interception list (/admin, CLI). */
  smsBlocklist: SmsBlocklistService;
  /** Contact lists and their members (`/sms/smsContactlists`, `smsapi/smsContactList/*`). */
  smsContacts: SmsContactsService;
  /** File imports into contact lists: streamed to disk, run as a job, all or nothing. */
  smsContactImports: SmsContactImportsService;
  /** Email address lists and their members (`/mail/mailingLists`, `addresslist/*`, `list.*`); paid only. */
  addressLists: AddressListsService;
  /** List sends (mail/send and mail/sendtemplate with useAddressList, mail/taskinfo); the worker's runner. */
  mailListTasks: MailListTasksService;
  /** Timed tasks (`/task/taskTemplates`): list sends made at a set time; the worker's runner. */
  timedTasks: TimedTasksService;
  /** The account's subscription forms (`/subInvite`). */
  subscriptions: SubscriptionsService;
  /** The public subscription page, its form and the double opt-in link. */
  subscribe: SubscribeService;
  /** File imports into address lists: the same machinery as the contact lists'. */
  addressListImports: AddressListImportsService;
  /** The SMS channel: carrier sessions, the SMS work loop and receipts (started by worker roles). */
  smsDelivery: SmsDeliveryService;
  /** Labels of mail (`/config/labels`, SendCloud `label/*`). */
  labels: LabelsService;
  /** Labels of SMS (`/sms/smsLabels`, `smsapi/label/*`, the `labelId` of SMS sends). */
  smsLabels: LabelsService;
  /** Sending domains: DKIM keys, the records to publish, DNS verification. */
  domains: DomainsService;
  /** Email templates and the customer's review steps; findSendableTemplate for the send path. */
  templates: TemplatesService;
  /** The platform operators' review of templates (/admin). */
  templateReview: TemplateReviewService;
  /** The pipeline's suppression check (SuppressionCheck) and what outcomes add to the lists. */
  suppression: SuppressionService;
  /** The account's bounce, unsubscribe, spam and block lists and interception rules. */
  suppressionLists: SuppressionListsService;
  /** Per-recipient status and send log (`/data/emailStatus`). */
  emailStatus: EmailStatusService;
  /** Offline exports (`/data/dataExportOfflines`): jobs writing gzip'd CSV files kept 7 days. */
  exports: ExportsService;
  /** The dashboard's beginner guide and today's figures. */
  dashboard: DashboardService;
  /** Fixed from / mail_from, AD mark, TLS domains, do-not-disturb, interception and bounce settings. */
  senderConfigs: SenderConfigsService;
  /** Queue counters, pauses, resume and deletion of queued mail (`/mail/queues`). */
  queues: QueuesService;
  /** The pipeline's SendPolicy: holds (pauses, do-not-disturb, account state), header rules, required TLS. */
  sendPolicy: AccountSendPolicy;
  /** The account's standing (active, suspended, frozen): refused on accept, held on delivery. */
  accountStates: AccountStates;
  /** Plans, daily quotas and temporary increases as operators set them (/admin/accounts). */
  accountPlans: AccountPlansService;
  /** The delivery engine: the worker's delivery loop, and bounce attribution for the inbound MX. */
  delivery: DeliveryService;
  /** The mail event log: request, deliver, bounces, opens, clicks, unsubscribes; read by consumers through cursors. */
  mailEvents: MailEventsService;
  /** The data centre's rollups and queries: day/hour series, delivery time, reputation, bombing alerts. */
  statistics: StatisticsService;
  /** The money ledger: balances, operator adjustments, prices, charging by result, the send gates' balance check. */
  ledger: LedgerService;
  /** Recharges: orders paid through Alipay or PayPal (their callbacks and reconciliation), offline transfers. */
  recharges: RechargesService;
  /** Dedicated IPs: purchases, the operator's pool, the A-record rule, monthly fees; the MTA's OutboundAddresses. */
  dedicatedIps: DedicatedIpsService;
  /** The payment providers' merchant settings, sealed at rest. */
  paymentSettings: PaymentSettingsService;
  /** Vouchers: issued by operators, claimed by code, used once to credit the balance. */
  vouchers: VouchersService;
  siteMessages: SiteMessagesService;
  /** Benefit packages: quotas of a price item that charging consumes before the balance. */
  benefitPackages: BenefitPackagesService;
  /** Invoices (fapiao): the profile, applications against recharges, postage, the operator's processing. */
  invoices: InvoicesService;
  /** The ledger's views: trade records, real-time consumption, receipts and monthly bills. */
  trade: TradeService;
  /** The account's unsubscribe page designs and which one is in use (`/config/unsubscribePage`). */
  unsubscribePages: UnsubscribePagesService;
  /** The recipient's side of the List-Unsubscribe link: its page and the one-click POST. */
  unsubscribe: UnsubscribeService;
  readiness(): Promise<Record<'database' | 'queue', string>>;
  /** Webhooks (`/config/webhooks`, SendCloud `webhook/*`): receivers, probes, the delivery log. */
  webhooks: WebhooksService;
  smsHooks: SmsHooksService;
  /** Turns mail events into signed pushes with retries; run by the worker's webhooks loop. */
  webhookDispatcher: WebhookDispatcher;
  close(): Promise<void>;
}

export async function createCore(config: Config, logger: Logger): Promise<Core> {
  const secretKey = loadSecretKey(config);
  const secretBox = new SecretBox(secretKey);
  const database = openDatabase(config.database);
  const applied = await migrateToLatest(database);
  logger.info({ database: database.describe, applied }, 'database ready');
  const queue = await createQueueBackend(config, database);
  logger.info({ queue: describeQueue(config) }, 'queue ready');
  const metrics = createMetrics(queue, QUEUE_NAMES);
  const nodes = new NodesService(database);
  const accounts = new AccountsService(database);
  const sessions = new SessionsService(database);
  const notifications = new NotificationsService({
    database,
    mailTransport: directMailTransport(config),
    openCarrier: config.smpp
      ? carrierOpener(config.smpp, logger.child({ component: 'notifications' }))
      : undefined,
    queue,
    config,
    logger,
  });
  const captcha = new CaptchaService(database);
  const slider = new SliderService(database);
  const tokens = new AccountTokensService(database);
  const invitations = new MemberInvitations({
    database,
    tokens,
    sessions,
    mailer: notifications,
    publicUrl: config.publicUrl,
  });
  const ipWhitelist = new IpWhitelistService(database);
  const auth = new AuthService(database, sessions, new LoginProtection(database, ipWhitelist));
  const verificationCodes = new VerificationCodesService(database, notifications);
  const googleAuth = new GoogleAuthService(database, secretBox);
  const identity = new IdentityCheck(verificationCodes, googleAuth);
  const sensitiveVerification = new SensitiveVerificationService(database, identity);
  const rateLimiter = new RateLimiter(database);
  const registration = new RegistrationService({
    database,
    limiter: rateLimiter,
    accounts,
    sessions,
    tokens,
    mailer: notifications,
    publicUrl: config.publicUrl,
    codes: verificationCodes,
    smsRequired: config.smpp !== undefined,
  });
  await ensurePlatformOperator(database, accounts, config.operator, logger);
  const accountStates = new AccountStates(database);
  const ledger = new LedgerService(database);
  const paymentSettings = new PaymentSettingsService(database, secretBox);
  const send = new SendService(database, {
    states: accountStates,
    funds: ledger.gate,
    hostname: config.hostname,
    sqliteFile: config.database.kind === 'sqlite' ? config.database.file : undefined,
  });
  /** An account's plan or balance changed here: the send paths' caches forget it at once. */
  const fundsChanged = (accountId: number) => {
    send.reads.forgetAccount(accountId);
    ledger.gate.changed(accountId);
  };
  const dedicatedIps = new DedicatedIpsService({
    database,
    logger: logger.child({ component: 'dedicated-ips' }),
    dnsServers: config.dnsServers,
    onCharged: fundsChanged,
  });
  const humanCheck = new HumanCheck(slider, captcha);
  const senderConfigs = new SenderConfigsService(database, {
    secretBox,
    relayAllowPrivate: config.delivery.relayAllowPrivate,
  });
  const suppression = new SuppressionService(database, {
    skipsInterception: (accountId) => senderConfigs.skipsInterception({ accountId }),
  });
  const queues = new QueuesService(database, { pauseMaxDays: config.queuePauseMaxDays });
  const sendPolicy = new AccountSendPolicy(senderConfigs, queues, accountStates);
  const delivery = new DeliveryService({
    database,
    config,
    logger,
    secretKey,
    suppression,
    policy: sendPolicy,
    dkimKeys: dkimKeysOf(database, secretBox),
    outbound: dedicatedIps,
    trackingPlans: trackingPlansOf(database.db, {
      url: config.tracking.url,
      httpsPort: config.tracking.httpsPort,
    }),
  });
  const smsCarriers = new SmsCarriersService(database, secretBox);
  const smsInterception = new SmsInterceptionService(database);
  const smsReplies = new SmsRepliesService(database, { optOutWords: config.smsOptOutWords });
  const smsPrices = new SmsPricesService(database);
  const smsDelivery = new SmsDeliveryService({
    database,
    directory: smsCarriers,
    interception: smsInterception,
    replies: smsReplies,
    senders: smsPrices,
    logger: logger.child({ component: 'sms' }),
    settings: {
      concurrency: config.delivery.concurrency,
      batchSize: config.delivery.batchSize,
      pollMs: config.smsPollMs,
      leaseMs: config.delivery.leaseMs,
    },
  });
  const smsSigns = new SmsSignsService({ database, secretBox });
  const smsCompliance = new SmsComplianceService(database);
  const smsTemplates = new SmsTemplatesService(database);
  const smsLabels = new LabelsService(database, { channel: 'sms' });
  const smsSendSources = new CoreSmsSendSources({
    signs: smsSigns,
    compliance: smsCompliance,
    templates: smsTemplates,
    labels: smsLabels,
  });
  const smsProtection = new SmsProtectionService(database);
  const smsLinks = new SmsLinksService(database, {
    key: purposeKey('sms-links', secretKey),
    base: config.smsShortLinkUrl,
  });
  const smsPauses = new SmsPausesService(database, { onReleased: () => smsDelivery.wake() });
  const smsMessages = new SmsMessagesService(database);
  const smsSend = new SmsSendService({
    database,
    sources: smsSendSources,
    states: accountStates,
    funds: ledger.gate,
    protection: smsProtection,
    links: smsLinks,
    onAccepted: () => smsDelivery.wake(),
  });
  const smsTasks = new SmsTasksService({
    database,
    send: smsSend,
    sources: smsSendSources,
    states: accountStates,
    logger: logger.child({ component: 'sms-tasks' }),
  });
  const addressLists = new AddressListsService({ database, queue, domain: config.mailListDomain });
  const mailListTasks = new MailListTasksService({
    database,
    send,
    lists: addressLists,
    logger: logger.child({ component: 'mail-list-tasks' }),
  });
  const timedTasks = new TimedTasksService({
    database,
    send,
    lists: addressLists,
    logger: logger.child({ component: 'timed-tasks' }),
  });
  const apiUserAuth = new ApiUserAuth(database, { limiter: rateLimiter });
  const subscriptions = new SubscriptionsService({ database, auth: apiUserAuth, send, lists: addressLists });
  const subscribe = new SubscribeService({
    database,
    captcha,
    send,
    lists: addressLists,
    suppression,
    key: purposeKey('subscription-confirm', secretKey),
    publicUrl: config.publicUrl,
    logger: logger.child({ component: 'subscriptions' }),
  });
  const tracking = createTracking({
    database,
    config,
    logger,
    secretBox,
    secretKey,
    mailEvents: new MailEventsService(database),
  });
  const statistics = new StatisticsService(database, new MailEventsService(database));
  const webhooks = createWebhooks({ database, secretBox, config, logger });
  const unsubscribePages = new UnsubscribePagesService(database);
  const unsubscribe = new UnsubscribeService({
    database,
    key: unsubscribeKey(secretKey),
    pages: unsubscribePages,
    suppression,
    mailEvents: new MailEventsService(database),
  });

  return {
    ...tracking,
    config,
    logger,
    database,
    queue,
    metrics,
    nodes,
    accounts,
    users: new UsersService(database),
    sessions,
    auth,
    notifications,
    captcha,
    slider,
    humanCheck,
    rateLimiter,
    verificationCodes,
    secretBox,
    ipWhitelist,
    googleAuth,
    sensitiveVerification,
    securitySettings: new SecuritySettingsService({
      database,
      verification: sensitiveVerification,
      whitelist: ipWhitelist,
    }),
    loginVerification: new LoginVerificationService({ database, auth, identity, whitelist: ipWhitelist }),
    registration,
    profile: new ProfileService({
      database,
      registration,
      verification: sensitiveVerification,
      codes: verificationCodes,
    }),
    accountDetails: new AccountDetailsService({ database, secretBox, verification: sensitiveVerification }),
    members: new MembersService({ database, sessions, invitations }),
    wechat: new WechatService({
      database,
      auth,
      humanCheck,
      sessions,
      secretBox,
      settings: config.wechat,
      publicUrl: config.publicUrl,
    }),
    apiUserAuth,
    send,
    testSend: new TestSendService(send),
    apiUsers: new ApiUsersService({ database, auth: apiUserAuth, verification: sensitiveVerification }),
    smsUsers: new SmsUsersService({ database, verification: sensitiveVerification, secretBox }),
    smsGatewayUsers: new SmsGatewayUsersService({ database, secretBox, verification: sensitiveVerification }),
    smsGateway: new SmsGatewayService({
      database,
      send: smsSend,
      sources: smsSendSources,
      templates: smsTemplates,
    }),
    smsSigns,
    smsSignReview: new SmsSignReviewService({ database, secretBox }),
    smsTemplates,
    smsTemplatesApi: new SmsTemplatesApi(database, smsTemplates),
    smsTemplateReview: new SmsTemplateReviewService(database),
    smsFilings: new SmsFilingsService({ database, secretBox }),
    smsFilingReview: new SmsFilingReviewService({ database, secretBox }),
    smsCompliance,
    smsUploads: new UploadsService(database),
    smsCarriers,
    smsSendSources,
    smsSend,
    smsTasks,
    smsTestSend: new SmsTestSendService(database, smsSend),
    smsProtection,
    smsPauses,
    smsReplies,
    smsLinks,
    smsContentView: new SmsContentViewService(database),
    smsPrices,
    mailRoutes: new MailRoutesService(database, (mail) => notifications.sendEmail(mail)),
    smsInterception,
    smsBlocklist: new SmsBlocklistService(database),
    smsContacts: new SmsContactsService({ database, queue }),
    smsContactImports: new SmsContactImportsService({
      database,
      queue,
      dataDir: config.dataDir,
      logger: logger.child({ component: 'sms-contacts' }),
    }),
    addressLists,
    mailListTasks,
    timedTasks,
    subscriptions,
    subscribe,
    addressListImports: new AddressListImportsService({
      database,
      queue,
      dataDir: config.dataDir,
      logger: logger.child({ component: 'address-lists' }),
    }),
    smsMessages,
    smsDelivery,
    labels: new LabelsService(database, { channel: 'email' }),
    smsLabels,
    domains: new DomainsService({
      database,
      secretBox,
      settings: config.sendingDomains,
      logger,
      dnsServers: config.dnsServers,
    }),
    templates: new TemplatesService(database),
    templateReview: new TemplateReviewService(database),
    suppression,
    suppressionLists: new SuppressionListsService(database, suppression),
    emailStatus: new EmailStatusService(database),
    exports: new ExportsService({ database, queue, dataDir: config.dataDir, logger }),
    dashboard: new DashboardService(database, statistics, { messages: smsMessages, pauses: smsPauses }),
    senderConfigs,
    queues,
    sendPolicy,
    accountStates,
    accountPlans: new AccountPlansService(database, { onChanged: fundsChanged }),
    dedicatedIps,
    recharges: new RechargesService({
      database,
      settings: paymentSettings,
      publicUrl: config.publicUrl,
      logger,
      onFunded: fundsChanged,
    }),
    paymentSettings,
    vouchers: new VouchersService(database, { onFunded: fundsChanged }),
    siteMessages: new SiteMessagesService({
      database,
      sender: notifications,
      publicUrl: config.publicUrl,
      logger,
    }),
    benefitPackages: new BenefitPackagesService(database),
    invoices: new InvoicesService({ database, onBalanceChanged: fundsChanged }),
    trade: new TradeService(database),
    delivery,
    mailEvents: new MailEventsService(database),
    statistics,
    ledger,
    webhooks: webhooks.service,
    smsHooks: webhooks.smsHooks,
    webhookDispatcher: webhooks.dispatcher,
    unsubscribePages,
    unsubscribe,
    async readiness() {
      const [db, q] = await Promise.allSettled([
        database.db
          .selectFrom('schema_version' as never)
          .select((eb) => eb.fn.countAll().as('n'))
          .execute(),
        queue.counts(QUEUES.system),
      ]);
      return {
        database: db.status === 'fulfilled' ? 'ok' : String(db.reason),
        queue: q.status === 'fulfilled' ? 'ok' : String(q.reason),
      };
    },
    async close() {
      await send.close();
      await delivery.stop(config.shutdownTimeoutMs);
      await smsDelivery.stop(config.shutdownTimeoutMs);
      await webhooks.close();
      await queue.close({ timeoutMs: config.shutdownTimeoutMs });
      await notifications.close();
      await database.close();
    },
  };
}
