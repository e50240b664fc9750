import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function MmsTemplateEditPage() {
  return <PlaceholderPage />;
}
