import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function SmsAttackPage() {
  return <PlaceholderPage />;
}
