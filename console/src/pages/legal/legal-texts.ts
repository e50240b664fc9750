import type { Lang } from '@herald/shared/lang';
import { ACTIVATION_VALID_DAYS } from '@herald/shared/limits';

/**
 * The service agreement and the privacy policy the sign-up form asks a new user to accept, in
 * both languages. Figures come from product-spec §9 (service terms, retention). Long prose, so it
 * lives with its two pages (and in their chunk), not in the locale files every screen loads.
 */
export interface LegalSection {
  title: string;
  paragraphs: string[];
}

export interface LegalDocument {
  title: string;
  updated: string;
  intro: string;
  sections: LegalSection[];
}

const UPDATED = '2026-11-26';

export const TERMS: Record<Lang, LegalDocument> = {
  'zh-cn': {
    title: '服务协议',
    updated: `更新日期：${UPDATED}`,
    intro:
      '本协议是您与本 Herald 平台运营方（下称“平台”）之间关于使用邮件、短信发送服务的约定。注册即表示您已阅读并接受本协议和《隐私政策》。',
    sections: [
      {
        title: '一、服务内容',
        paragraphs: [
          '平台通过 HTTP API、SMTP 和控制台为您发送触发类与批量类邮件、短信、语音验证码和彩信，并提供投递状态、统计、退信与退订管理等功能。',
          `注册后须在 ${ACTIVATION_VALID_DAYS} 天内通过激活邮件激活账号；部分功能（如国内短信）须完成企业认证和报备。`,
        ],
      },
      {
        title: '二、账号与安全',
        paragraphs: [
          '您应妥善保管账号密码、API_KEY 和 SMS_KEY；通过您的凭据发生的操作视为您本人的操作。发现凭据泄露时请立即重置。',
          '您提交的认证资料应真实、准确；资料不实的，平台可暂停服务。',
        ],
      },
      {
        title: '三、发送规范',
        paragraphs: [
          '您只可向事先同意接收的收件人发送邮件和短信，不得发送垃圾邮件、欺诈、违法或侵权内容，并应在营销邮件中提供退订方式。',
          '单次发送的硬退信率超过 5% 即达到约定上限；单次发送或单月硬退信率超过 10%，或单日、单月垃圾举报率超过 0.05% 的，平台可终止服务。',
          '被退订、举报或判定为无效的地址会进入抑制列表，平台不再向其发送。',
        ],
      },
      {
        title: '四、服务可用性与补偿',
        paragraphs: [
          '平台承诺服务可用性 99.9%、数据持久性 99.99%。连续 15 分钟无法使用计为不可用。',
          '因平台原因不可用的，按不可用分钟数的两倍乘以此前 30 天日均消费给予补偿，以代金券形式发放，上限为当月付费金额。',
        ],
      },
      {
        title: '五、技术支持',
        paragraphs: ['工作日 9:00-18:00（UTC+8）提供支持；免费用户 24 小时内响应，付费用户 12 小时内响应。'],
      },
      {
        title: '六、费用',
        paragraphs: [
          '付费服务按价格页公示的价格从账户余额中扣除，账单于每月 1 日出具。合作方价格调整将提前 7 天通知。',
        ],
      },
      {
        title: '七、数据保留',
        paragraphs: [
          '投递日志可查询 30 天，邮件内容可查看 15 天，离线导出文件保留 7 天；数据查询范围最长 6 个月。删除的数据在 7 天后销毁。请自行备份需要长期保存的数据。',
        ],
      },
      {
        title: '八、协议的变更与终止',
        paragraphs: [
          '平台可修改本协议并在控制台或网站公告，修改自公告之日起生效；您继续使用服务即视为接受修改后的协议。',
          '您可随时停止使用服务；违反本协议的，平台可暂停或终止服务。',
        ],
      },
    ],
  },
  en: {
    title: 'Service agreement',
    updated: `Updated ${UPDATED}`,
    intro:
      'This agreement governs your use of the email and SMS sending services of the operator of this Herald platform ("the platform"). By signing up you confirm that you have read and accept it and the Privacy policy.',
    sections: [
      {
        title: '1. The service',
        paragraphs: [
          'The platform sends transactional and marketing email, SMS, voice codes and MMS for you through its HTTP API, SMTP and the console, and shows delivery status, statistics, bounces and unsubscribes.',
          `Activate your account with the activation mail within ${ACTIVATION_VALID_DAYS} days of signing up. Some services (such as domestic SMS) need enterprise certification and filing first.`,
        ],
      },
      {
        title: '2. Your account',
        paragraphs: [
          'Keep your password, API_KEYs and SMS_KEYs safe: whatever is done with your credentials is done by you. Reset a credential at once if it may have leaked.',
          'Certification materials must be true and accurate; the platform may suspend an account whose materials are not.',
        ],
      },
      {
        title: '3. Sending rules',
        paragraphs: [
          'Send only to recipients who agreed to receive your messages; no spam, fraud, unlawful or infringing content; every marketing mail offers a way to unsubscribe.',
          'A hard-bounce rate over 5% in one send is the agreed limit; over 10% in one send or in a month, or spam reports over 0.05% in a day or a month, allow the platform to end the service.',
          'Addresses that unsubscribed, reported spam or proved invalid go on suppression lists and are not sent to again.',
        ],
      },
      {
        title: '4. Availability and compensation',
        paragraphs: [
          'The platform commits to 99.9% availability and 99.99% durability. The service is unavailable when it cannot be used for 15 consecutive minutes.',
          "Unavailability caused by the platform is compensated with vouchers worth twice the minutes of downtime times the previous 30 days' average daily spend, at most the month's payment.",
        ],
      },
      {
        title: '5. Support',
        paragraphs: [
          'Support works 9:00-18:00 (UTC+8) on workdays and answers within 24 hours on the free plan and within 12 hours on paid plans.',
        ],
      },
      {
        title: '6. Fees',
        paragraphs: [
          "Paid services are charged to your balance at the prices on the prices page; bills are issued on the 1st of each month. Partners' price changes are announced 7 days ahead.",
        ],
      },
      {
        title: '7. Data retention',
        paragraphs: [
          'Delivery logs can be searched for 30 days and mail content viewed for 15 days; offline exports are kept for 7 days; data queries reach back at most 6 months. Deleted data is destroyed after 7 days. Keep your own backups of what you need longer.',
        ],
      },
      {
        title: '8. Changes and termination',
        paragraphs: [
          'The platform may change this agreement by announcing it in the console or on its site; changes apply from the announcement, and using the service afterwards accepts them.',
          'You may stop using the service at any time; the platform may suspend or end the service of an account that breaks this agreement.',
        ],
      },
    ],
  },
};

export const PRIVACY: Record<Lang, LegalDocument> = {
  'zh-cn': {
    title: '隐私政策',
    updated: `更新日期：${UPDATED}`,
    intro: '本政策说明平台收集哪些信息、为何收集、如何保护以及保存多久。',
    sections: [
      {
        title: '一、我们收集的信息',
        paragraphs: [
          '账号信息：用户名、邮箱、手机号、登录记录（时间、IP 地址）；认证资料：企业或个人的证件信息。',
          '发送数据：您提交的邮件和短信内容、收件人地址和号码、投递结果；收件人打开和点击时的 IP 地址与浏览器信息（用于统计，机器访问会被标记并排除）。',
        ],
      },
      {
        title: '二、信息的用途',
        paragraphs: [
          '用于提供和保障发送服务、统计与计费、防止滥用和欺诈，以及依法履行义务。平台不出售您的信息。',
        ],
      },
      {
        title: '三、信息的保护',
        paragraphs: [
          '密码、API_KEY 和 SMS_KEY 仅保存其哈希值；私钥和其他密钥加密保存；日志中不记录敏感信息。',
          '邮件由平台自有的发送服务直接投递，不经第三方发送服务转交；短信经运营商通道送达。',
        ],
      },
      {
        title: '四、保存期限',
        paragraphs: [
          '投递日志 30 天，邮件内容 15 天，离线导出文件 7 天，账单记录 3 年；删除的数据在 7 天后销毁。',
        ],
      },
      {
        title: '五、收件人的权利',
        paragraphs: ['收件人可通过邮件中的退订链接退订，退订即时生效；要求停止联系的请求在 10 天内处理。'],
      },
      {
        title: '六、政策的变更',
        paragraphs: ['本政策的修改将提前公告，自公告后 30 天起生效。'],
      },
    ],
  },
  en: {
    title: 'Privacy policy',
    updated: `Updated ${UPDATED}`,
    intro: 'This policy says what the platform collects, why, how it is protected and how long it is kept.',
    sections: [
      {
        title: '1. What we collect',
        paragraphs: [
          'Account data: user name, email, phone number and sign-in records (time, IP address); certification materials of a company or a person.',
          'Sending data: the content of your mail and SMS, recipient addresses and numbers, delivery results; the IP address and browser of a recipient who opens or clicks (for statistics; machine hits are marked and left out).',
        ],
      },
      {
        title: '2. Why',
        paragraphs: [
          'To provide and protect the sending service, to count and bill, to prevent abuse and fraud, and to meet legal duties. The platform does not sell your data.',
        ],
      },
      {
        title: '3. How it is protected',
        paragraphs: [
          'Passwords, API_KEYs and SMS_KEYs are stored only as hashes; private keys and other secrets are sealed; logs carry nothing sensitive.',
          "Mail is delivered by the platform's own mail servers, never handed to a third-party sending service; SMS reach phones through carriers' networks.",
        ],
      },
      {
        title: '4. How long',
        paragraphs: [
          'Delivery logs 30 days, mail content 15 days, offline exports 7 days, bills 3 years; deleted data is destroyed after 7 days.',
        ],
      },
      {
        title: "5. Recipients' rights",
        paragraphs: [
          'Recipients unsubscribe with the link in each mail, effective at once; requests to stop contact are honoured within 10 days.',
        ],
      },
      {
        title: '6. Changes',
        paragraphs: ['Changes to this policy are announced and take effect 30 days later.'],
      },
    ],
  },
};
