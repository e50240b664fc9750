import type addressLists from '../locales/zh-cn/addressLists.json';
import type admin from '../locales/zh-cn/admin.json';
import type adminAccounts from '../locales/zh-cn/adminAccounts.json';
import type adminSmsBlocklist from '../locales/zh-cn/adminSmsBlocklist.json';
import type adminSmsCarriers from '../locales/zh-cn/adminSmsCarriers.json';
import type apiUsers from '../locales/zh-cn/apiUsers.json';
import type auth from '../locales/zh-cn/auth.json';
import type common from '../locales/zh-cn/common.json';
import type dashboard from '../locales/zh-cn/dashboard.json';
import type dedicatedIps from '../locales/zh-cn/dedicatedIps.json';
import type diagnostics from '../locales/zh-cn/diagnostics.json';
import type domains from '../locales/zh-cn/domains.json';
import type emailStatus from '../locales/zh-cn/emailStatus.json';
import type offlineExports from '../locales/zh-cn/exports.json';
import type home from '../locales/zh-cn/home.json';
import type http from '../locales/zh-cn/http.json';
import type integration from '../locales/zh-cn/integration.json';
import type invoices from '../locales/zh-cn/invoices.json';
import type labels from '../locales/zh-cn/labels.json';
import type listImport from '../locales/zh-cn/listImport.json';
import type mailRoutes from '../locales/zh-cn/mailRoutes.json';
import type members from '../locales/zh-cn/members.json';
import type messages from '../locales/zh-cn/messages.json';
import type notFound from '../locales/zh-cn/notFound.json';
import type queues from '../locales/zh-cn/queues.json';
import type recharge from '../locales/zh-cn/recharge.json';
import type routes from '../locales/zh-cn/routes.json';
import type security from '../locales/zh-cn/security.json';
import type senderConfigs from '../locales/zh-cn/senderConfigs.json';
import type shell from '../locales/zh-cn/shell.json';
import type smsContacts from '../locales/zh-cn/smsContacts.json';
import type smsContent from '../locales/zh-cn/smsContent.json';
import type smsFiling from '../locales/zh-cn/smsFiling.json';
import type smsGateway from '../locales/zh-cn/smsGateway.json';
import type smsImport from '../locales/zh-cn/smsImport.json';
import type smsLinks from '../locales/zh-cn/smsLinks.json';
import type smsPauses from '../locales/zh-cn/smsPauses.json';
import type smsReplies from '../locales/zh-cn/smsReplies.json';
import type smsSend from '../locales/zh-cn/smsSend.json';
import type smsSigns from '../locales/zh-cn/smsSigns.json';
import type smsTasks from '../locales/zh-cn/smsTasks.json';
import type smsTemplates from '../locales/zh-cn/smsTemplates.json';
import type smsUsers from '../locales/zh-cn/smsUsers.json';
import type statistics from '../locales/zh-cn/statistics.json';
import type subscribe from '../locales/zh-cn/subscribe.json';
import type subscriptions from '../locales/zh-cn/subscriptions.json';
import type suppression from '../locales/zh-cn/suppression.json';
import type templates from '../locales/zh-cn/templates.json';
import type testSend from '../locales/zh-cn/testSend.json';
import type timedTasks from '../locales/zh-cn/timedTasks.json';
import type tracking from '../locales/zh-cn/tracking.json';
import type trade from '../locales/zh-cn/trade.json';
import type unsubscribePage from '../locales/zh-cn/unsubscribePage.json';
import type vouchers from '../locales/zh-cn/vouchers.json';
import type webhooks from '../locales/zh-cn/webhooks.json';

/**
 * Types every `t()` key against the Chinese files, so a misspelt key or a route title naming a
 * key that does not exist fails the typecheck. A new locale area is one line here; the drift
 * test (e2e/specs/locales.spec.ts) keeps the English files in step with the Chinese ones.
 */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: {
      translation: {
        admin: typeof admin;
        addressLists: typeof addressLists;
        adminAccounts: typeof adminAccounts;
        adminSmsBlocklist: typeof adminSmsBlocklist;
        adminSmsCarriers: typeof adminSmsCarriers;
        apiUsers: typeof apiUsers;
        auth: typeof auth;
        common: typeof common;
        dashboard: typeof dashboard;
        dedicatedIps: typeof dedicatedIps;
        diagnostics: typeof diagnostics;
        domains: typeof domains;
        emailStatus: typeof emailStatus;
        exports: typeof offlineExports;
        home: typeof home;
        integration: typeof integration;
        invoices: typeof invoices;
        http: typeof http;
        labels: typeof labels;
        listImport: typeof listImport;
        mailRoutes: typeof mailRoutes;
        notFound: typeof notFound;
        queues: typeof queues;
        recharge: typeof recharge;
        routes: typeof routes;
        security: typeof security;
        senderConfigs: typeof senderConfigs;
        members: typeof members;
        shell: typeof shell;
        smsContacts: typeof smsContacts;
        smsContent: typeof smsContent;
        smsFiling: typeof smsFiling;
        smsImport: typeof smsImport;
        smsGateway: typeof smsGateway;
        smsLinks: typeof smsLinks;
        smsPauses: typeof smsPauses;
        smsReplies: typeof smsReplies;
        smsSend: typeof smsSend;
        smsSigns: typeof smsSigns;
        smsTasks: typeof smsTasks;
        timedTasks: typeof timedTasks;
        smsTemplates: typeof smsTemplates;
        smsUsers: typeof smsUsers;
        statistics: typeof statistics;
        suppression: typeof suppression;
        templates: typeof templates;
        testSend: typeof testSend;
        tracking: typeof tracking;
        trade: typeof trade;
        unsubscribePage: typeof unsubscribePage;
        vouchers: typeof vouchers;
        messages: typeof messages;
        subscribe: typeof subscribe;
        subscriptions: typeof subscriptions;
        webhooks: typeof webhooks;
      };
    };
  }
}
