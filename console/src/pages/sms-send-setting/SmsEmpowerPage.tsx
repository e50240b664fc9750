import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SmsEmpowerPage() {
  return <PlaceholderPage />;
}
