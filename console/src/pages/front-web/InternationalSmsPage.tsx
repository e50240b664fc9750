import { SMS_PRICE_QUERY_MAX } from '@herald/shared/schemas/sms-price.schema';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, Select, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchSmsCountries, fetchSmsPrices, type SmsPriceView } from '../../api/sms-prices.api.ts';
import { HeraldLogo } from '../../components/HeraldLogo.tsx';
import { LanguageSwitcher } from '../../components/LanguageSwitcher.tsx';
import styles from '../home/HomePage.module.css';

/**
 * International SMS on the public site (console-spec §2 /frontWeb/InternationalSms): what Herald
 * offers abroad and the price query of product-spec §9, up to five countries or regions at once,
 * answered from the operator's own price table.
 */
export default function InternationalSmsPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh-cn';
  const [chosen, setChosen] = useState<string[]>([]);
  const countries = useQuery({ queryKey: ['smsCountries', lang], queryFn: () => fetchSmsCountries(lang) });
  const prices = useMutation({ mutationFn: (codes: string[]) => fetchSmsPrices(codes, lang) });

  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <a className={styles.brand} href="/home">
          <HeraldLogo />
          <span className={styles.brandName}>{t('common.productName')}</span>
        </a>
        <LanguageSwitcher />
      </header>
      <main
        style={{
          maxWidth: 920,
          margin: '0 auto',
          padding: '48px 24px',
          width: '100%',
          boxSizing: 'border-box',
        }}
      >
        <Typography.Title level={1}>{t('home.intlSms.title')}</Typography.Title>
        <Typography.Paragraph type="secondary" style={{ fontSize: 16 }}>
          {t('home.intlSms.intro')}
        </Typography.Paragraph>
        <Card title={t('home.intlSms.queryTitle')} className="intl-sms-price-query">
          <Space wrap style={{ width: '100%' }}>
            <Select
              mode="multiple"
              className="intl-sms-countries"
              style={{ minWidth: 360 }}
              placeholder={t('home.intlSms.choose', { max: SMS_PRICE_QUERY_MAX })}
              loading={countries.isPending}
              value={chosen}
              onChange={(value) => setChosen(value.slice(0, SMS_PRICE_QUERY_MAX))}
              maxCount={SMS_PRICE_QUERY_MAX}
              optionFilterProp="label"
              options={(countries.data ?? []).map((c) => ({
                value: c.country,
                label: `${c.name} ${c.dialCode}`,
              }))}
            />
            <Button
              type="primary"
              className="intl-sms-query"
              disabled={chosen.length === 0}
              loading={prices.isPending}
              onClick={() => prices.mutate(chosen)}
            >
              {t('home.intlSms.query')}
            </Button>
          </Space>
          <Table<SmsPriceView>
            rowKey="country"
            className="intl-sms-prices"
            style={{ marginTop: 16 }}
            pagination={false}
            dataSource={prices.data ?? []}
            locale={{ emptyText: <Empty description={t('home.intlSms.empty')} /> }}
            columns={[
              { title: t('home.intlSms.country'), render: (_, p) => `${p.name} (${p.country})` },
              { title: t('home.intlSms.dialCode'), dataIndex: 'dialCode' },
              {
                title: t('home.intlSms.price'),
                render: (_, p) =>
                  p.price === null ? (
                    <Typography.Text type="secondary">{t('home.intlSms.notOffered')}</Typography.Text>
                  ) : (
                    t('home.intlSms.perPart', { price: p.price })
                  ),
              },
              {
                title: t('home.intlSms.sender'),
                render: (_, p) => (p.senderRule ? t(`home.intlSms.senderRules.${p.senderRule}`) : '—'),
              },
            ]}
          />
          <Typography.Paragraph type="secondary" style={{ marginTop: 16 }}>
            {t('home.intlSms.counting')}
          </Typography.Paragraph>
        </Card>
        <Space style={{ marginTop: 24 }}>
          <Button type="primary" size="large" href="/register">
            {t('home.intlSms.signUp')}
          </Button>
        </Space>
      </main>
      <footer className={styles.footer}>{t('home.footer')}</footer>
    </div>
  );
}
