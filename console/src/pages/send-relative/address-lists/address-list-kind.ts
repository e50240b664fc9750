import { PERMISSIONS } from '@herald/shared/permissions';
import {
  ADDRESS_MEMBER_NAME_MAX,
  ADDRESS_MEMBER_VARS_MAX,
  addressMemberAddressSchema,
  addressMemberNameSchema,
  addressMemberVarNameSchema,
  addressMemberVarValueSchema,
} from '@herald/shared/schemas/address-list.schema';
import {
  ADDRESS_IMPORTS,
  type AddressListView,
  type AddressMemberView,
  addAddressMember,
  deleteAddressList,
  deleteAddressMember,
  downloadAddressList,
  fetchAddressList,
  fetchAddressMembers,
  updateAddressMember,
} from '../../../api/address-lists.api.ts';
import type { ListScreenKind } from '../../../components/list-members/list-kind.ts';

/** Email address lists on the shared list screens: members keyed by their address. */
export const ADDRESS_LIST_KIND: ListScreenKind<AddressListView, 'address', AddressMemberView> = {
  area: 'addressLists',
  memberKey: 'address',
  permission: PERMISSIONS.EMAIL_SEND,
  listsPath: '/sendRelative/address',
  membersPath: '/sendRelative/address/addressEdit',
  queryKeys: { lists: 'addressLists', list: 'addressList', members: 'addressMembers' },
  api: {
    list: fetchAddressList,
    removeList: deleteAddressList,
    members: fetchAddressMembers,
    addMember: addAddressMember,
    updateMember: updateAddressMember,
    removeMember: deleteAddressMember,
    exportList: downloadAddressList,
    imports: ADDRESS_IMPORTS,
  },
  memberExists: 'ADDRESS_MEMBER_EXISTS',
  schemas: {
    key: addressMemberAddressSchema,
    name: addressMemberNameSchema,
    varName: addressMemberVarNameSchema,
    varValue: addressMemberVarValueSchema,
    nameMax: ADDRESS_MEMBER_NAME_MAX,
    varsMax: ADDRESS_MEMBER_VARS_MAX,
  },
};
