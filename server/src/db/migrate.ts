import { type Migration, Migrator } from 'kysely/migration';
import type { Database } from './database.ts';
import * as foundation from './migrations/0001-foundation.ts';
import * as usersSessions from './migrations/0002-users-sessions.ts';
import * as loginSecurity from './migrations/0003-login-security.ts';
import * as systemMessages from './migrations/0004-system-messages.ts';
import * as securityPrimitives from './migrations/0005-security-primitives.ts';
import * as accountTokens from './migrations/0006-account-tokens.ts';
import * as securitySettings from './migrations/0007-security-settings.ts';
import * as members from './migrations/0008-members.ts';
import * as profile from './migrations/0009-profile.ts';
import * as wechat from './migrations/0010-wechat.ts';
import * as sendingSetup from './migrations/0011-sending-setup.ts';
import * as dkimRotation from './migrations/0012-dkim-rotation.ts';
import * as apiUserSenders from './migrations/0013-api-user-senders.ts';
import * as profileDetails from './migrations/0015-profile-details.ts';
import * as messages from './migrations/0016-messages.ts';
import * as delivery from './migrations/0017-delivery.ts';
import * as suppression from './migrations/0018-suppression.ts';
import * as senderConfigsQueues from './migrations/0019-sender-configs-queues.ts';
import * as mailEvents from './migrations/0020-mail-events.ts';
import * as tracking from './migrations/0021-tracking.ts';
import * as unsubscribePages from './migrations/0022-unsubscribe-pages.ts';
import * as webhooks from './migrations/0023-webhooks.ts';
import * as statistics from './migrations/0024-statistics.ts';
import * as exportsMigration from './migrations/0025-exports.ts';
import * as accountStateMigration from './migrations/0026-account-state.ts';
import * as dotOwner from './migrations/0027-dot-owner.ts';
import * as quotaRaises from './migrations/0028-quota-raises.ts';
import * as smsUsers from './migrations/0029-sms-users.ts';
import * as smsContent from './migrations/0030-sms-content.ts';
import * as uploadedFiles from './migrations/0031-uploaded-files.ts';
import * as smsMessages from './migrations/0033-sms-messages.ts';
import * as smsFrequencyLimits from './migrations/0034-sms-frequency-limits.ts';
import * as smsHooks from './migrations/0035-sms-hooks.ts';
import * as smsBlocks from './migrations/0036-sms-blocks.ts';
import * as smsLabels from './migrations/0037-sms-labels.ts';
import * as smsContentView from './migrations/0038-sms-content-view.ts';
import * as smsTemplatePauses from './migrations/0039-sms-template-pauses.ts';
import * as smsContactLists from './migrations/0040-sms-contact-lists.ts';
import * as smsReplies from './migrations/0041-sms-replies.ts';
import * as smsGatewayUsers from './migrations/0042-sms-gateway-users.ts';
import * as smsShortLinks from './migrations/0043-sms-short-links.ts';
import * as smsCountryPrices from './migrations/0044-sms-country-prices.ts';
import * as mailRoutes from './migrations/0045-mail-routes.ts';
import * as smsTasks from './migrations/0046-sms-tasks.ts';
import * as addressLists from './migrations/0047-address-lists.ts';
import * as mailListTasks from './migrations/0048-mail-list-tasks.ts';
import * as subscriptions from './migrations/0049-subscriptions.ts';
import * as timedTasks from './migrations/0050-timed-tasks.ts';
import * as ledger from './migrations/0051-ledger.ts';
import * as recharges from './migrations/0052-recharges.ts';
import * as invoices from './migrations/0053-invoices.ts';
import * as vouchersPackages from './migrations/0054-vouchers-packages.ts';
import * as dedicatedIps from './migrations/0055-dedicated-ips.ts';
import * as balanceNotices from './migrations/0056-balance-notices.ts';
import * as smsMmsBodies from './migrations/0057-sms-mms-bodies.ts';
import * as smsVoiceCodes from './migrations/0058-sms-voice-codes.ts';
import * as siteMessages from './migrations/0059-site-messages.ts';
import * as messageSettings from './migrations/0060-message-settings.ts';
import { type HeraldMigration, migrationContext } from './migrations/migration.ts';

/**
 * The one migration set, for both dialects, applied at start by every process (the migrator
 * takes a lock, so processes starting together do not race). Applied names are recorded in
 * the schema_version table. Append new migrations to this list; never edit an applied one.
 */
export const MIGRATIONS: Record<string, HeraldMigration> = {
  '0001-foundation': foundation,
  '0002-users-sessions': usersSessions,
  '0003-login-security': loginSecurity,
  '0004-system-messages': systemMessages,
  '0005-security-primitives': securityPrimitives,
  '0006-account-tokens': accountTokens,
  '0007-security-settings': securitySettings,
  '0008-members': members,
  '0009-profile': profile,
  '0010-wechat': wechat,
  '0011-sending-setup': sendingSetup,
  '0012-dkim-rotation': dkimRotation,
  '0013-api-user-senders': apiUserSenders,
  '0015-profile-details': profileDetails,
  '0016-messages': messages,
  '0017-delivery': delivery,
  '0018-suppression': suppression,
  '0019-sender-configs-queues': senderConfigsQueues,
  '0020-mail-events': mailEvents,
  '0021-tracking': tracking,
  '0022-unsubscribe-pages': unsubscribePages,
  '0023-webhooks': webhooks,
  '0024-statistics': statistics,
  '0025-exports': exportsMigration,
  '0026-account-state': accountStateMigration,
  '0027-dot-owner': dotOwner,
  '0028-quota-raises': quotaRaises,
  '0029-sms-users': smsUsers,
  '0030-sms-content': smsContent,
  '0031-uploaded-files': uploadedFiles,
  '0033-sms-messages': smsMessages,
  '0034-sms-frequency-limits': smsFrequencyLimits,
  '0035-sms-hooks': smsHooks,
  '0036-sms-blocks': smsBlocks,
  '0037-sms-labels': smsLabels,
  '0038-sms-content-view': smsContentView,
  '0039-sms-template-pauses': smsTemplatePauses,
  '0040-sms-contact-lists': smsContactLists,
  '0041-sms-replies': smsReplies,
  '0042-sms-gateway-users': smsGatewayUsers,
  '0043-sms-short-links': smsShortLinks,
  '0044-sms-country-prices': smsCountryPrices,
  '0045-mail-routes': mailRoutes,
  '0046-sms-tasks': smsTasks,
  '0047-address-lists': addressLists,
  '0048-mail-list-tasks': mailListTasks,
  '0049-subscriptions': subscriptions,
  '0050-timed-tasks': timedTasks,
  '0051-ledger': ledger,
  '0052-recharges': recharges,
  '0053-invoices': invoices,
  '0054-vouchers-packages': vouchersPackages,
  '0055-dedicated-ips': dedicatedIps,
  '0056-balance-notices': balanceNotices,
  '0057-sms-mms-bodies': smsMmsBodies,
  '0058-sms-voice-codes': smsVoiceCodes,
  '0059-site-messages': siteMessages,
  '0060-message-settings': messageSettings,
};

export async function migrateToLatest(database: Database): Promise<string[]> {
  const context = migrationContext(database.dialect);
  const migrations: Record<string, Migration> = Object.fromEntries(
    Object.entries(MIGRATIONS).map(([name, m]) => [name, { up: (db) => m.up(db, context) }]),
  );
  const migrator = new Migrator({
    db: database.db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: 'schema_version',
    migrationLockTableName: 'schema_version_lock',
    // Migrations are written on parallel branches of work and may land out of number order; each
    // runs once whatever its neighbours did, so a database that has a later one still takes it.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
