import { SmsBlockList } from './SmsBlockList.tsx';

/** Unsubscribed numbers (console-spec §2 /s_sendResponse/unsubscribe): SMS to them fail with 430. */
export default function SmsUnsubscribePage() {
  return <SmsBlockList kind="unsubscribe" />;
}
