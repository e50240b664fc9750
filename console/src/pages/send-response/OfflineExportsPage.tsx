import { OfflineExportsList } from './offline/OfflineExportsList.tsx';

/** Offline exports of email data (console-spec §2 /sendResponse/offline). */
export default function OfflineExportsPage() {
  return <OfflineExportsList channel="email" />;
}
