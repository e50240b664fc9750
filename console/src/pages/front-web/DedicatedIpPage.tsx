import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function DedicatedIpPage() {
  return <PlaceholderPage />;
}
