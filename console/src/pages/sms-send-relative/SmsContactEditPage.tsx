import { ListMembersScreen } from '../../components/list-members/ListMembersScreen.tsx';
import { CONTACT_LIST_KIND } from './contacts/contact-list-kind.ts';

/** The numbers of one contact list (console-spec §2 /s_sendRelative/contact/contactEdit?id=). */
export default function SmsContactEditPage() {
  return <ListMembersScreen kind={CONTACT_LIST_KIND} />;
}
