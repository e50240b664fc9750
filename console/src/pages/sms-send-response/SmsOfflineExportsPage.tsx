import { OfflineExportsList } from '../send-response/offline/OfflineExportsList.tsx';

/**
 * Offline exports of SMS data (console-spec §2 /s_sendResponse/offline): the SMS status exports
 * asked for on /s_sendResponse/smsStatus, through the same export jobs as email's, kept 7 days.
 */
export default function SmsOfflineExportsPage() {
  return <OfflineExportsList channel="sms" />;
}
