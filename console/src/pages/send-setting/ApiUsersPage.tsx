import { PlaceholderPage } from '../../components/PlaceholderPage.tsx';

export default function ApiUsersPage() {
  return <PlaceholderPage />;
}
