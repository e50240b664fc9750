import { PLATFORM_OPERATOR } from '@herald/shared/permissions';
import type { AdminScreen } from './route-types.ts';

/**
 * The platform operators' minimal /admin area (issue 5): not part of console-spec §2, which
 * describes the customer console. Its screens need PLATFORM_OPERATOR: a user of the platform's
 * own account; customers are sent to /backend/deny by the guard, and the server answers 403.
 */
export const adminScreens: readonly AdminScreen[] = [
  {
    path: '/admin/templates',
    titleKey: 'routes.adminTemplates',
    page: 'admin/AdminTemplatesPage',
    access: PLATFORM_OPERATOR,
  },
  {
    path: '/admin/accounts',
    titleKey: 'routes.adminAccounts',
    page: 'admin/AdminAccountsPage',
    access: PLATFORM_OPERATOR,
  },
  {
    path: '/admin/smsReview',
    titleKey: 'routes.adminSmsReview',
    page: 'admin/AdminSmsReviewPage',
    access: PLATFORM_OPERATOR,
  },
  {
    path: '/admin/smsCarriers',
    titleKey: 'routes.adminSmsCarriers',
    page: 'admin/AdminSmsCarriersPage',
    access: PLATFORM_OPERATOR,
  },
  {
    path: '/admin/smsBlocklist',
    titleKey: 'routes.adminSmsBlocklist',
    page: 'admin/AdminSmsBlocklistPage',
    access: PLATFORM_OPERATOR,
  },
  {
    path: '/admin/invoices',
    titleKey: 'routes.adminInvoices',
    page: 'admin/AdminInvoicesPage',
    access: PLATFORM_OPERATOR,
  },
];
