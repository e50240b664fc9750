import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SmsGuaranteePage() {
  return <PlaceholderPage />;
}
