import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function VoiceTemplateEditPage() {
  return <PlaceholderPage />;
}
