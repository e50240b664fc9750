import { PERMISSIONS } from '@herald/shared/permissions';
import {
  SMS_CONTACT_NAME_MAX,
  SMS_CONTACT_VARS_MAX,
  smsContactNameSchema,
  smsContactPhoneSchema,
  smsContactVarNameSchema,
  smsContactVarValueSchema,
} from '@herald/shared/schemas/sms-contact.schema';
import {
  addContactMember,
  CONTACT_IMPORTS,
  deleteContactList,
  deleteContactMember,
  downloadContacts,
  fetchContactList,
  fetchContactMembers,
  type SmsContactListView,
  type SmsContactMemberView,
  updateContactMember,
} from '../../../api/sms-contacts.api.ts';
import type { ListScreenKind } from '../../../components/list-members/list-kind.ts';

/** SMS contact lists on the shared list screens: members keyed by their mobile number. */
export const CONTACT_LIST_KIND: ListScreenKind<SmsContactListView, 'phone', SmsContactMemberView> = {
  area: 'smsContacts',
  memberKey: 'phone',
  permission: PERMISSIONS.SMS_SEND,
  listsPath: '/s_sendRelative/contact',
  membersPath: '/s_sendRelative/contact/contactEdit',
  queryKeys: { lists: 'smsContactLists', list: 'smsContactList', members: 'smsContactMembers' },
  api: {
    list: fetchContactList,
    removeList: deleteContactList,
    members: fetchContactMembers,
    addMember: addContactMember,
    updateMember: updateContactMember,
    removeMember: deleteContactMember,
    exportList: downloadContacts,
    imports: CONTACT_IMPORTS,
  },
  memberExists: 'SMS_CONTACT_MEMBER_EXISTS',
  schemas: {
    key: smsContactPhoneSchema,
    name: smsContactNameSchema,
    varName: smsContactVarNameSchema,
    varValue: smsContactVarValueSchema,
    nameMax: SMS_CONTACT_NAME_MAX,
    varsMax: SMS_CONTACT_VARS_MAX,
  },
};
