import { SMS_TEMPLATE_REGIONS, type SmsTemplateRegion } from '@herald/shared/schemas/sms-template.schema';
import { countSms } from '@herald/shared/sms/sms-count';
import { splitSms } from '@herald/shared/sms/sms-parts';
import { Button, Card, Col, Descriptions, Flex, Input, Radio, Row, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { SmsPhonePreview } from './SmsPhonePreview.tsx';
import { TEMPLATES_PATH } from './sms-template-paths.ts';

/**
 * SMS character count (console-spec §2 template/countTest): a text and a signature give the
 * characters the carrier counts, the billed parts, the encoding and each part's limit, through
 * `countSms`, the one counter the template form and the sender use as well.
 */
export default function SmsCountTestPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [sign, setSign] = useState('');
  const [region, setRegion] = useState<SmsTemplateRegion>('domestic');
  const count = countSms(text, sign, region);
  const parts = count.text ? splitSms(count.text).parts : [];

  return (
    <Card className="sms-count-test-page">
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('smsTemplates.countTitle')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('smsTemplates.countIntro')}</Typography.Paragraph>
      <Row gutter={32}>
        <Col xs={24} lg={14}>
          <Flex vertical gap={16}>
            <Radio.Group value={region} onChange={(event) => setRegion(event.target.value)}>
              {SMS_TEMPLATE_REGIONS.map((r) => (
                <Radio.Button key={r} value={r}>
                  {t(`smsTemplates.regions.${r}`)}
                </Radio.Button>
              ))}
            </Radio.Group>
            <div>
              <Typography.Text>{t('smsTemplates.countSign')}</Typography.Text>
              <Input
                className="sms-count-sign"
                value={sign}
                maxLength={20}
                onChange={(event) => setSign(event.target.value)}
              />
            </div>
            <div>
              <Typography.Text>{t('smsTemplates.countText')}</Typography.Text>
              <Input.TextArea
                className="sms-count-text"
                rows={6}
                value={text}
                onChange={(event) => setText(event.target.value)}
              />
            </div>
            <Descriptions bordered size="small" column={1} className="sms-count-result">
              <Descriptions.Item label={t('smsTemplates.countCharacters')}>
                <span className="sms-count-characters">{count.characters}</span>
              </Descriptions.Item>
              <Descriptions.Item label={t('smsTemplates.countParts')}>
                <span className="sms-count-parts">{count.parts}</span>
              </Descriptions.Item>
              <Descriptions.Item label={t('smsTemplates.countEncoding')}>
                <span className="sms-count-encoding">{t(`smsTemplates.encodings.${count.encoding}`)}</span>
              </Descriptions.Item>
              <Descriptions.Item label={t('smsTemplates.countPerPart')}>
                <span className="sms-count-per-part">{count.perPart}</span>
              </Descriptions.Item>
            </Descriptions>
            <Typography.Text type="secondary">{t('smsTemplates.countRule')}</Typography.Text>
            <Button style={{ alignSelf: 'start' }} onClick={() => navigate(TEMPLATES_PATH)}>
              {t('smsTemplates.back')}
            </Button>
          </Flex>
        </Col>
        <Col xs={24} lg={10}>
          <Typography.Text type="secondary">{t('smsTemplates.countSent')}</Typography.Text>
          <Flex vertical gap={8}>
            {parts.length > 1 ? (
              <SmsPhonePreview
                text={parts.map((part, i) => `${i + 1}/${parts.length} ${part}`).join('\n\n')}
              />
            ) : (
              <SmsPhonePreview text={count.text} />
            )}
          </Flex>
        </Col>
      </Row>
    </Card>
  );
}
