import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { fetchAddressLists } from '../../api/address-lists.api.ts';
import { ListsScreen } from '../../components/list-members/ListsScreen.tsx';
import { AddressListFormModal } from './address-lists/AddressListFormModal.tsx';
import { ADDRESS_LIST_KIND } from './address-lists/address-list-kind.ts';

/**
 * Email address lists (console-spec §2 /sendRelative/address), paid accounts only: the account's
 * lists with their alias and member count, found by name or alias, created and changed in a
 * dialog; a list's members are managed on address/addressEdit. A free account is told where to
 * upgrade.
 */
export default function AddressListsPage() {
  const { t } = useTranslation();
  return (
    <ListsScreen
      kind={ADDRESS_LIST_KIND}
      fetchLists={fetchAddressLists}
      columns={[
        {
          title: t('addressLists.address'),
          render: (_, row) => <span className="nowrap">{row.address}</span>,
        },
      ]}
      notice={(page) =>
        !page.paid && (
          <Alert
            type="info"
            showIcon
            className="address-lists-paid-only"
            title={t('addressLists.paidOnly')}
            action={<Link to="/accountSetting/financialMangement/charge">{t('addressLists.upgrade')}</Link>}
          />
        )
      }
      form={({ list, page, onClose, onSaved }) => (
        <AddressListFormModal list={list} domain={page?.domain ?? ''} onClose={onClose} onSaved={onSaved} />
      )}
    />
  );
}
