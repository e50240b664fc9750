import type { Lang } from '@herald/shared';
import type { GuideSampleId } from '@herald/shared/samples/guide-samples';

/**
 * The prose of the guides at /docs/guides/, a table of data: per topic its title, a one-line
 * summary for the index, and per language a list of blocks (paragraph, heading, a sample set by
 * id, the error table generated from the catalogue). Text is plain with `code` in backticks.
 * Both languages name the same samples in the same order (api-guides.test.ts checks the page).
 */
export type GuideBlock = { h: string } | { p: string } | { sample: GuideSampleId } | { errorTable: true };

export interface GuideTopic {
  title: Record<Lang, string>;
  summary: Record<Lang, string>;
  body: Record<Lang, GuideBlock[]>;
}

export const GUIDE_TOPICS = [
  'http-send',
  'smtp-send',
  'x-smtpapi',
  'templates-and-variables',
  'webhooks',
  'tracking',
  'suppression',
  'error-codes',
] as const;
export type GuideTopicSlug = (typeof GUIDE_TOPICS)[number];

export const GUIDES: Record<GuideTopicSlug, GuideTopic> = {
  'http-send': {
    title: { 'zh-cn': '通过 HTTP 发送', en: 'Sending by HTTP' },
    summary: {
      'zh-cn': '用 mail/send 发出第一封邮件，读懂应答。',
      en: 'Send a first mail with mail/send and read the answer.',
    },
    body: {
      'zh-cn': [
        {
          p: '向 `/apiv2/mail/send` POST 一个表单（`application/x-www-form-urlencoded`，带附件时用 `multipart/form-data`）。每次调用都带 `apiUser` 和 `apiKey`；`from` 必须是该 API_USER 所绑定域名下的地址。',
        },
        {
          p: '`to` 用 `;` 分隔，最多 100 个，收件人彼此可见；要给每人单独发一封，请用 X-SMTPAPI 的 `to`。`html` 与 `plain` 至少填一个。',
        },
        { sample: 'http-send' },
        {
          p: '成功时应答为 `{"result":true,"statusCode":200,...}`，`info.emailIdList` 中每个收件人一个 emailId，用它在 webhook 和 `data/emailStatus` 中追踪这封邮件。',
        },
        {
          p: '附件字段名为 `attachments`，总大小不超过 10 MB。`sendRequestId` 使一小时内重复的请求只处理一次；`headers` 是 JSON，其中 `SC-Custom-` 开头的头会在 webhook 的 `userHeaders` 中返回。',
        },
      ],
      en: [
        {
          p: 'POST a form to `/apiv2/mail/send` (`application/x-www-form-urlencoded`, or `multipart/form-data` with attachments). Every call carries `apiUser` and `apiKey`; `from` must be an address on the domain the API_USER is bound to.',
        },
        {
          p: '`to` is `;`-separated, up to 100 addresses, and every recipient sees the others; to give each recipient a mail of their own, use the `to` of X-SMTPAPI. Give `html`, `plain` or both.',
        },
        { sample: 'http-send' },
        {
          p: 'A success answers `{"result":true,"statusCode":200,...}` with one emailId per recipient in `info.emailIdList`; webhooks and `data/emailStatus` name the mail by it.',
        },
        {
          p: 'Files go in `attachments` (10 MB in all). `sendRequestId` makes a repeated request within an hour count once; `headers` is JSON, and headers starting `SC-Custom-` come back in webhooks as `userHeaders`.',
        },
      ],
    },
  },
  'smtp-send': {
    title: { 'zh-cn': '通过 SMTP 发送', en: 'Sending by SMTP' },
    summary: {
      'zh-cn': '用 API_USER 和 API_KEY 登录 SMTP，带 X-SMTPAPI 头发信。',
      en: 'Log in to SMTP with the API_USER and API_KEY and send with an X-SMTPAPI header.',
    },
    body: {
      'zh-cn': [
        {
          p: '用户名是 API_USER，密码是它的 API_KEY（AUTH LOGIN 或 PLAIN）。587 端口要求 STARTTLS，配置了证书时 465 端口从第一个字节起就是 TLS；下面的主机和端口是本部署的。',
        },
        {
          p: 'X-SMTPAPI 头是 JSON 的 base64，必须是邮件的最后一个头。信封收件人（RCPT TO）与 X-SMTPAPI 的 `to` 一致，每人收到单独的一封，变量按顺序替换。',
        },
        { sample: 'smtp-send' },
        {
          p: '邮件和每个收件人写入之后，服务器才回复 `250 #<messageId>#Queued`。SMTP 不支持地址列表。',
        },
      ],
      en: [
        {
          p: 'The user name is the API_USER and the password its API_KEY (AUTH LOGIN or PLAIN). Port 587 requires STARTTLS, and with a certificate configured port 465 is TLS from the first byte; the host and port below are this deployment’s.',
        },
        {
          p: 'The X-SMTPAPI header is the base64 of a JSON document and must be the last header. Give the X-SMTPAPI `to` addresses as the envelope recipients (RCPT TO): each gets a mail of their own, with the variables at their position.',
        },
        { sample: 'smtp-send' },
        {
          p: 'The reply `250 #<messageId>#Queued` comes once the message and every recipient are stored. Address lists are not available over SMTP.',
        },
      ],
    },
  },
  'x-smtpapi': {
    title: { 'zh-cn': 'X-SMTPAPI', en: 'X-SMTPAPI' },
    summary: {
      'zh-cn': '一次请求给每个收件人发送个性化的邮件。',
      en: 'One request, a personal mail for each recipient.',
    },
    body: {
      'zh-cn': [
        {
          p: 'X-SMTPAPI 是一个 JSON：`to` 收件人数组（最多 100 个）；`sub` 每个变量一个数组，与 `to` 按位置对应；`section` 是 `sub` 的值可引用的共用片段；`filters` 按邮件开关打开、点击和退订追踪。',
        },
        {
          p: '通过 HTTP 时放在 `xsmtpapi` 字段（JSON 原文，不用 base64）；通过 SMTP 时放在 `X-SMTPAPI` 头（base64）。有 `to` 时 `to`、`cc`、`bcc` 参数被忽略，每个收件人单独一封。',
        },
        { sample: 'x-smtpapi' },
      ],
      en: [
        {
          p: 'X-SMTPAPI is a JSON document: `to`, an array of recipients (up to 100); `sub`, an array per variable aligned with `to` by position; `section`, shared blocks a `sub` value may name; `filters`, open, click and unsubscribe tracking switched per mail.',
        },
        {
          p: 'Over HTTP it is the `xsmtpapi` field (plain JSON, no base64); over SMTP the `X-SMTPAPI` header (base64). With its `to`, the `to`, `cc` and `bcc` parameters are ignored and each recipient gets a mail of their own.',
        },
        { sample: 'x-smtpapi' },
      ],
    },
  },
  'templates-and-variables': {
    title: { 'zh-cn': '模板与变量', en: 'Templates and variables' },
    summary: {
      'zh-cn': '在主题和正文中使用 %变量%，用审核通过的模板发送。',
      en: 'Use %variables% in subject and body, send with an approved template.',
    },
    body: {
      'zh-cn': [
        {
          p: '变量写作 `%name%`，可以出现在主题、`html` 和 `plain` 中，值来自 X-SMTPAPI 的 `sub`。`%%user_defined_unsubscribe_link%%` 放在链接里，就是该收件人的退订地址。',
        },
        {
          p: '模板在控制台（发送相关 → 邮件模板）或用 `template/add` 创建，审核通过后才能发送。`mail/sendtemplate` 用 `templateInvokeName` 指定模板，不带 `html`、`plain`、`cc`、`bcc`，收件人只来自 `xsmtpapi` 的 `to`；`subject` 可省略，默认用模板的主题。',
        },
        { sample: 'sendtemplate' },
      ],
      en: [
        {
          p: 'A variable is written `%name%` in the subject, `html` and `plain`; its values come from the `sub` of X-SMTPAPI. `%%user_defined_unsubscribe_link%%` in a link is that recipient’s unsubscribe address.',
        },
        {
          p: 'Create templates in the console (Sending → Templates) or with `template/add`; a template sends once it is approved. `mail/sendtemplate` names it by `templateInvokeName` and takes no `html`, `plain`, `cc` or `bcc`: the recipients come only from the `to` of `xsmtpapi`. `subject` is optional and defaults to the template’s.',
        },
        { sample: 'sendtemplate' },
      ],
    },
  },
  webhooks: {
    title: { 'zh-cn': 'Webhook 与签名校验', en: 'Webhooks and their signature' },
    summary: {
      'zh-cn': '接收投递、打开、点击等事件，并校验签名。',
      en: 'Receive delivery, open, click and other events, and verify their signature.',
    },
    body: {
      'zh-cn': [
        {
          p: '在控制台（发送设置 → Webhook）添加接收地址，选择事件，并生成 app key。保存时 Herald 会向该地址推送一个签名的样例，它必须在 3 秒内回答 200。也可以用 `webhook/add` 添加，但这样添加的 webhook 没有 app key，签名用空密钥计算，不能证明来源：请在控制台为它生成一个。',
        },
        {
          p: '推送是表单（`application/x-www-form-urlencoded`），字段有 `event`、`emailId`、`recipient`、`timestamp`（毫秒）、`token`（50 个随机字符）和 `signature`。签名 = hex(HMAC-SHA256(app key, timestamp + token))。没有在 3 秒内回答 200 的推送会在 1、2、4、8、16 分钟后重试。',
        },
        { sample: 'webhook-receiver' },
        {
          p: '接收端先校验签名，再处理事件；耗时的工作放在回答之后。curl 页签模拟 Herald 发送一个签名的推送，用来在上线前试一试接收端。',
        },
      ],
      en: [
        {
          p: 'Add the receiving URL in the console (Sending settings → Webhooks), pick the events and generate an app key. On save Herald pushes a signed sample to the URL, which must answer 200 within 3 s. `webhook/add` adds one too, but without an app key: such pushes are signed with the empty key and prove nothing, so generate a key for it in the console.',
        },
        {
          p: 'A push is a form (`application/x-www-form-urlencoded`) with `event`, `emailId`, `recipient`, `timestamp` (ms), `token` (50 random characters) and `signature` = hex(HMAC-SHA256(app key, timestamp + token)). A push not answered 200 within 3 s is retried after 1, 2, 4, 8 and 16 minutes.',
        },
        { sample: 'webhook-receiver' },
        {
          p: 'Verify the signature before acting on an event, and do slow work after answering. The curl tab plays Herald: it posts a signed push, to try a receiver before going live.',
        },
      ],
    },
  },
  tracking: {
    title: { 'zh-cn': '打开与点击追踪', en: 'Open and click tracking' },
    summary: {
      'zh-cn': '按 API_USER 或按邮件打开追踪，查询打开与点击。',
      en: 'Switch tracking on per API_USER or per mail, and read opens and clicks.',
    },
    body: {
      'zh-cn': [
        {
          p: '打开追踪在 HTML 邮件中加入一个像素，点击追踪让 http(s) 链接经过签名的跳转；标签带 `data-no-track` 的链接不改写。默认设置在控制台（发送设置 → 追踪设置）按 API_USER 配置，单封邮件可用 X-SMTPAPI 的 `filters` 覆盖。',
        },
        { sample: 'tracking-send' },
        {
          p: '打开和点击以 `open`、`click` 事件推送给 webhook，也可以用 `openandclick/list` 查询。图片代理、链接扫描器和投递后 2 秒内的访问记为机器访问（`isMachine` 为 `true`），列出但不计入统计。',
        },
        { sample: 'openandclick-list' },
      ],
      en: [
        {
          p: 'Open tracking adds a pixel to HTML mail; click tracking sends http(s) links through a signed redirect, except links whose tag carries `data-no-track`. The defaults are per API_USER in the console (Sending settings → Tracking); X-SMTPAPI `filters` override them for one mail.',
        },
        { sample: 'tracking-send' },
        {
          p: 'Opens and clicks reach webhooks as `open` and `click` events, and `openandclick/list` lists them. Image proxies, link scanners and hits within 2 s of delivery are machine hits (`isMachine` is `true`): listed, never counted.',
        },
        { sample: 'openandclick-list' },
      ],
    },
  },
  suppression: {
    title: { 'zh-cn': '退订与抑制列表', en: 'Unsubscribes and suppression' },
    summary: {
      'zh-cn': 'Herald 不再发信的地址，以及如何管理它们。',
      en: 'The addresses Herald no longer sends to, and how to manage them.',
    },
    body: {
      'zh-cn': [
        {
          p: 'Herald 在投递前检查三个列表：无效地址（退信）、退订、垃圾举报。在列表中的收件人不会被投递，其状态和原因可在邮件状态中查看。',
        },
        {
          p: '用 `unsubscribe/add`、`unsubscribe/list`、`unsubscribe/delete` 管理退订；`apiUserList` 或 `labelIdList` 把一条退订限定在某个 API_USER 或标签，不填则对整个账号生效。退信用 `bounce/list`、`bounce/delete`，垃圾举报用 `spamreported/list`。',
        },
        { sample: 'unsubscribe-add' },
      ],
      en: [
        {
          p: 'Before delivering, Herald checks three lists: invalid addresses (bounces), unsubscribes and spam reports. A recipient on one is not delivered; the mail’s status says which list and why.',
        },
        {
          p: 'Manage unsubscribes with `unsubscribe/add`, `unsubscribe/list` and `unsubscribe/delete`; `apiUserList` or `labelIdList` scope an entry to one API_USER or label, and without them it holds for the whole account. Bounces: `bounce/list`, `bounce/delete`; spam reports: `spamreported/list`.',
        },
        { sample: 'unsubscribe-add' },
      ],
    },
  },
  'error-codes': {
    title: { 'zh-cn': '错误码', en: 'Error codes' },
    summary: {
      'zh-cn': '应答中的 statusCode 及其含义。',
      en: 'The statusCode of an answer and what it means.',
    },
    body: {
      'zh-cn': [
        {
          p: '`/apiv2` 的每个应答都是 HTTP 200 和 `{result, statusCode, message, info}`：`result` 为 `false` 时，`statusCode` 说明原因，`message` 的语言跟随 `Accept-Language`（默认中文）。请按 `statusCode` 判断，不要按 `message`。',
        },
        { sample: 'error-answer' },
        { h: '全部错误码' },
        { errorTable: true },
      ],
      en: [
        {
          p: 'Every `/apiv2` answer is HTTP 200 with `{result, statusCode, message, info}`: when `result` is `false`, `statusCode` says why, and `message` is in the language of `Accept-Language` (Chinese by default). Decide by `statusCode`, never by `message`.',
        },
        { sample: 'error-answer' },
        { h: 'All error codes' },
        { errorTable: true },
      ],
    },
  },
};
