import { fetchContactLists } from '../../api/sms-contacts.api.ts';
import { ListsScreen } from '../../components/list-members/ListsScreen.tsx';
import { ContactListFormModal } from './contacts/ContactListFormModal.tsx';
import { CONTACT_LIST_KIND } from './contacts/contact-list-kind.ts';

/**
 * SMS contact lists (console-spec §2 /s_sendRelative/contact): the account's lists, found by
 * name, created and renamed in a dialog; a list's numbers are managed on contact/contactEdit.
 */
export default function SmsContactsPage() {
  return (
    <ListsScreen
      kind={CONTACT_LIST_KIND}
      fetchLists={fetchContactLists}
      form={({ list, onClose, onSaved }) => (
        <ContactListFormModal list={list} onClose={onClose} onSaved={onSaved} />
      )}
    />
  );
}
