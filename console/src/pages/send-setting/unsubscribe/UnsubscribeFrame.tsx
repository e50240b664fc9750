import { Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * The unsubscribe page exactly as the server renders it for recipients, in an iframe with an
 * empty sandbox: no scripts, no form posts, no navigation out of the console.
 */
export function UnsubscribeFrame({ html, height = 560 }: { html: string | undefined; height?: number }) {
  const { t } = useTranslation();
  if (html === undefined) return <Skeleton active />;
  return (
    <iframe
      className="unsubscribe-frame"
      title={t('unsubscribePage.frameTitle')}
      sandbox=""
      srcDoc={html}
      style={{ width: '100%', height, border: '1px solid rgba(0,0,0,.08)', borderRadius: 8 }}
    />
  );
}
