import type { MmsPage } from '@herald/shared/sms/sms-mms';
import { Flex, Typography } from 'antd';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';

const PHONE: CSSProperties = {
  width: 300,
  minHeight: 360,
  padding: '28px 14px 20px',
  border: '10px solid #1f2329',
  borderRadius: 32,
  background: '#fff',
  boxSizing: 'border-box',
};
const BUBBLE: CSSProperties = {
  display: 'inline-block',
  maxWidth: '100%',
  padding: '10px 14px',
  borderRadius: '16px 16px 16px 4px',
  background: '#f0f2f5',
  whiteSpace: 'pre-wrap',
  wordBreak: 'break-word',
};

const dataUrl = (media: { type: string; data: string }) => `data:${media.type};base64,${media.data}`;

/**
 * What the handset shows: the text (signature and examples in place) in a message bubble, and an
 * MMS's pages one under another with their images and sounds.
 */
export function SmsPhonePreview({ text, pages }: { text: string; pages?: MmsPage[] | null }) {
  const { t } = useTranslation();
  return (
    <div style={PHONE} className="sms-phone-preview">
      <Typography.Text type="secondary" style={{ display: 'block', textAlign: 'center', marginBottom: 12 }}>
        {t('smsTemplates.phonePreview')}
      </Typography.Text>
      <Flex vertical gap={8} align="start">
        {text ? (
          <div style={BUBBLE} className="sms-phone-text">
            {text}
          </div>
        ) : null}
        {(pages ?? []).map((page, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: pages have no identity but their place
          <div key={index} style={BUBBLE} className="sms-phone-page">
            {page.image ? (
              <img
                src={dataUrl(page.image)}
                alt={page.image.name}
                style={{ maxWidth: '100%', display: 'block' }}
              />
            ) : null}
            {page.text ? <div>{page.text}</div> : null}
            {page.audio ? (
              // biome-ignore lint/a11y/useMediaCaption: a customer's own sound file has no captions
              <audio controls src={dataUrl(page.audio)} style={{ width: '100%' }} />
            ) : null}
          </div>
        ))}
      </Flex>
    </div>
  );
}
