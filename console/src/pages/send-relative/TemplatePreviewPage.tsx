import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function TemplatePreviewPage() {
  return <PlaceholderPage />;
}
