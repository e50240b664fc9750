import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SmsSendDataPage() {
  return <PlaceholderPage />;
}
