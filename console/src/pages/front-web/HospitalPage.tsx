import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function HospitalPage() {
  return <PlaceholderPage />;
}
