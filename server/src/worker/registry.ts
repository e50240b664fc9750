import type { JobDefinition, TaskDefinition } from './job.ts';
import { deliverSystemMail } from './jobs/deliver-system-mail.job.ts';
import { deliverSystemSms } from './jobs/deliver-system-sms.job.ts';
import { exportData } from './jobs/export-data.job.ts';
import { importAddressList, purgeAddressList } from './jobs/import-address-lists.job.ts';
import { importSmsContacts, purgeSmsContactList } from './jobs/import-sms-contacts.job.ts';
import { chargingLoop } from './loops/charging.loop.ts';
import { deliverEmailLoop } from './loops/deliver-email.loop.ts';
import { deliverSmsLoop } from './loops/deliver-sms.loop.ts';
import type { LoopDefinition } from './loops/loop.ts';
import { mailListTasksLoop } from './loops/mail-list-tasks.loop.ts';
import { smsTasksLoop } from './loops/sms-tasks.loop.ts';
import { statisticsLoop } from './loops/statistics.loop.ts';
import { timedTasksLoop } from './loops/timed-tasks.loop.ts';
import { webhooksLoop } from './loops/webhooks.loop.ts';
import { noticeLowBalances, noticeLowBalancesTask } from './tasks/balance-notices.task.ts';
import { billDedicatedIps, billDedicatedIpsTask } from './tasks/bill-dedicated-ips.task.ts';
import { checkDedicatedIps, checkDedicatedIpsTask } from './tasks/check-dedicated-ips.task.ts';
import { checkDomainDns, checkDomainDnsTask } from './tasks/check-domain-dns.task.ts';
import { cleanSmsContacts, cleanSmsContactsTask } from './tasks/clean-sms-contacts.task.ts';
import { expireExports, expireExportsTask } from './tasks/expire-exports.task.ts';
import { expireQueuePauses, expireQueuePausesTask } from './tasks/expire-queue-pauses.task.ts';
import { expireSmsPauses, expireSmsPausesTask } from './tasks/expire-sms-pauses.task.ts';
import { expireTemplateApproval, expireTemplateApprovalTask } from './tasks/expire-template-approval.task.ts';
import { expireVouchers, expireVouchersTask } from './tasks/expire-vouchers.task.ts';
import { forgetNodes, forgetNodesTask } from './tasks/forget-nodes.task.ts';
import { noticeMessages, noticeMessagesTask } from './tasks/message-notices.task.ts';
import { pruneChallenges, pruneChallengesTask } from './tasks/prune-challenges.task.ts';
import { pruneJobs, pruneJobsTask } from './tasks/prune-jobs.task.ts';
import { pruneRateLimits, pruneRateLimitsTask } from './tasks/prune-rate-limits.task.ts';
import { reconcileRecharges, reconcileRechargesTask } from './tasks/reconcile-recharges.task.ts';
import { recordReputation, recordReputationTask } from './tasks/reputation.task.ts';

/**
 * Every job and periodic task Herald runs, in one place: a worker process serves exactly these.
 * A new kind of background work is a file under jobs/ or tasks/ and one line here.
 */
export const JOBS: readonly JobDefinition[] = [
  pruneJobs,
  forgetNodes,
  pruneRateLimits,
  pruneChallenges,
  deliverSystemMail,
  deliverSystemSms,
  expireTemplateApproval,
  checkDomainDns,
  expireQueuePauses,
  expireSmsPauses,
  exportData,
  expireExports,
  recordReputation,
  importSmsContacts,
  purgeSmsContactList,
  cleanSmsContacts,
  importAddressList,
  purgeAddressList,
  reconcileRecharges,
  noticeLowBalances,
  noticeMessages,
  expireVouchers,
  checkDedicatedIps,
  billDedicatedIps,
];

export const TASKS: readonly TaskDefinition[] = [
  pruneJobsTask,
  forgetNodesTask,
  pruneRateLimitsTask,
  pruneChallengesTask,
  expireTemplateApprovalTask,
  checkDomainDnsTask,
  expireQueuePausesTask,
  expireSmsPausesTask,
  expireExportsTask,
  recordReputationTask,
  cleanSmsContactsTask,
  reconcileRechargesTask,
  noticeLowBalancesTask,
  noticeMessagesTask,
  expireVouchersTask,
  checkDedicatedIpsTask,
  billDedicatedIpsTask,
];

/** Long-running loops of the worker role (work claimed from the database, not queue jobs). */
export const LOOPS: readonly LoopDefinition[] = [
  deliverEmailLoop,
  deliverSmsLoop,
  smsTasksLoop,
  mailListTasksLoop,
  timedTasksLoop,
  statisticsLoop,
  webhooksLoop,
  chargingLoop,
];
