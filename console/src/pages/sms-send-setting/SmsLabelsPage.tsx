import { smsLabels } from '../../api/labels.api.ts';
import { LabelsCard } from '../send-setting/labels/LabelsCard.tsx';

/**
 * SMS labels (console-spec §2 /s_sendSetting/label): the labels an SMS send names by `labelId`,
 * apart from the email labels; add, rename, delete, search by name.
 */
export default function SmsLabelsPage() {
  return <LabelsCard api={smsLabels} />;
}
