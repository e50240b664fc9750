import { ListMembersScreen } from '../../components/list-members/ListMembersScreen.tsx';
import { ADDRESS_LIST_KIND } from './address-lists/address-list-kind.ts';

/** The addresses of one address list (console-spec §2 /sendRelative/address/addressEdit?id=). */
export default function AddressListEditPage() {
  return <ListMembersScreen kind={ADDRESS_LIST_KIND} />;
}
