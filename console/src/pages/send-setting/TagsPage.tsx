import { emailLabels } from '../../api/labels.api.ts';
import { LabelsCard } from './labels/LabelsCard.tsx';

/** Labels (console-spec §2 /sendSetting/tags): add, rename, delete, search by name. */
export default function TagsPage() {
  return <LabelsCard api={emailLabels} />;
}
