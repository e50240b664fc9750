import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function GetPrizePage() {
  return <PlaceholderPage />;
}
