import { AppError } from '@herald/shared';
import { needsLists } from './address-list.params.ts';
import type { Apiv2Area } from './apiv2.plugin.ts';

/**
 * The calls that need address lists (reference §4 `mail/taskinfo`, §8 `addresslist/*`,
 * `addressmember/*`). Address lists come with the Email lists work; until then each of these
 * answers SendCloud's "no address lists for this user" (40820), never an unknown action.
 */
const NEEDS_LISTS = [
  'mail/taskinfo',
  'addresslist/list',
  'addresslist/add',
  'addresslist/update',
  'addresslist/delete',
  'addressmember/list',
  'addressmember/get',
  'addressmember/add',
  'addressmember/update',
  'addressmember/delete',
];

export const addressListApiv2: Apiv2Area = (action) => {
  for (const path of NEEDS_LISTS) {
    action(path, needsLists(path), async () => {
      throw new AppError('API_ADDRESS_LISTS_UNAVAILABLE');
    });
  }
};
