import { voucherClaimSchema } from '@herald/shared/schemas/voucher.schema';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Empty,
  Flex,
  Form,
  Input,
  Popconfirm,
  Progress,
  Result,
  Table,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  type BenefitPackageView,
  claimVoucher,
  fetchBenefitPackages,
  fetchVouchers,
  type PackageStatus,
  redeemVoucher,
  type VoucherStatus,
  type VoucherView,
} from '../../api/vouchers.api.ts';
import { showFormError, zodRule } from '../../components/form-rules.ts';
import { formatDateTime } from '../../components/format-time.ts';
import { fenToYuan } from '../../components/money.ts';
import { useFormSave } from '../../components/use-form-save.ts';
import { httpEffects } from '../../infra/http/http-effects.ts';
import { SUCCESS_TOAST_SECONDS } from '../../infra/http/http-exceptions.ts';
import { loadConsoleData } from '../../stores/session-loader.ts';
import { productLabel } from './trade-product.ts';

const PAGE_SIZE = 10;
const CHARGE_PATH = '/accountSetting/financialMangement/charge';
const VOUCHER_COLOURS: Record<VoucherStatus, string> = {
  unused: 'processing',
  used: 'success',
  expired: 'default',
  voided: 'error',
};
const PACKAGE_COLOURS: Record<PackageStatus, string> = {
  active: 'success',
  exhausted: 'default',
  expired: 'default',
  voided: 'error',
};

/**
 * Vouchers and benefit packages (console-spec §2 `financialMangement/charge/coupon`, calls
 * `/vouchers`, `/userBenefitPackage`). Vouchers: the ones the account received, with status and
 * expiry, each unused one usable after a confirmation (its amount goes to the balance, and the
 * header's balance is reloaded), and a form to claim a voucher by its code. A free account sees
 * why it cannot use them yet (product-spec §6) and a way to top up. Packages: type, quota, how much
 * is used, and until when.
 */
export default function CouponsPage() {
  const { t } = useTranslation();
  return (
    <Card title={t('vouchers.title')} className="coupons-page">
      <Tabs
        items={[
          { key: 'vouchers', label: t('vouchers.tabs.vouchers'), children: <VouchersTab /> },
          { key: 'packages', label: t('vouchers.tabs.packages'), children: <PackagesTab /> },
        ]}
      />
    </Card>
  );
}

function VouchersTab() {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [pageNum, setPageNum] = useState(1);
  const [form] = Form.useForm<{ code: string }>();
  const vouchers = useQuery({
    queryKey: ['vouchers', pageNum],
    queryFn: () => fetchVouchers({ pageNum, pageSize: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queries.invalidateQueries({ queryKey: ['vouchers'] });
  const toast = (text: string) => httpEffects().toast('success', text, SUCCESS_TOAST_SECONDS);

  const { submit, saving } = useFormSave(
    async ({ code }: { code: string }) => {
      const claimed = await claimVoucher(code.trim());
      toast(t('vouchers.claimed', { amount: fenToYuan(claimed.amountFen) }));
      form.resetFields();
      await refresh();
    },
    (error) => showFormError(form, error),
  );
  const use = useMutation({
    mutationFn: redeemVoucher,
    onSuccess: (result) => {
      toast(t('vouchers.used', { amount: fenToYuan(result.voucher.amountFen) }));
      loadConsoleData();
    },
    onSettled: refresh,
  });

  if (vouchers.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  const free = vouchers.data?.free === true;

  return (
    <Flex vertical gap={16}>
      {free && (
        <Alert
          type="warning"
          showIcon
          className="coupons-free-notice"
          title={t('vouchers.freeTitle')}
          description={t('vouchers.freeNotice')}
          action={
            <Link to={CHARGE_PATH}>
              <Button type="primary" size="small">
                {t('vouchers.topUp')}
              </Button>
            </Link>
          }
        />
      )}
      <Form
        form={form}
        layout="inline"
        onFinish={submit}
        className="coupons-claim"
        initialValues={{ code: '' }}
      >
        <Form.Item
          name="code"
          label={t('vouchers.claimTitle')}
          extra={t('vouchers.claimHint')}
          rules={[zodRule(voucherClaimSchema.shape.code)]}
        >
          <Input
            placeholder={t('vouchers.codePlaceholder')}
            style={{ width: 260 }}
            autoComplete="off"
            data-testid="voucher-code"
          />
        </Form.Item>
        <Form.Item>
          <Button htmlType="submit" loading={saving} data-testid="voucher-claim">
            {t('vouchers.claim')}
          </Button>
        </Form.Item>
      </Form>
      <Table<VoucherView>
        rowKey="id"
        className="coupons-vouchers"
        loading={vouchers.isPending}
        dataSource={vouchers.data?.list ?? []}
        scroll={{ x: true }}
        locale={{ emptyText: <Empty description={t('vouchers.noVouchers')} /> }}
        pagination={{
          current: pageNum,
          pageSize: PAGE_SIZE,
          total: vouchers.data?.total ?? 0,
          onChange: setPageNum,
          showSizeChanger: false,
          hideOnSinglePage: true,
        }}
        columns={[
          {
            title: t('vouchers.code'),
            render: (_, row) => (
              <Typography.Text copyable className="voucher-code">
                {row.code}
              </Typography.Text>
            ),
          },
          {
            title: t('vouchers.amount'),
            render: (_, row) => <span className="nowrap voucher-amount">¥{fenToYuan(row.amountFen)}</span>,
          },
          {
            title: t('vouchers.status'),
            render: (_, row) => (
              <Tag
                color={VOUCHER_COLOURS[row.status]}
                className={`voucher-status voucher-status-${row.status}`}
              >
                {t(`vouchers.statuses.${row.status}`)}
              </Tag>
            ),
          },
          { title: t('vouchers.reason'), render: (_, row) => row.reason || '-' },
          { title: t('vouchers.issuedAt'), render: (_, row) => formatDateTime(row.issuedAt) },
          { title: t('vouchers.expiresAt'), render: (_, row) => formatDateTime(row.expiresAt) },
          {
            title: t('vouchers.usedAt'),
            render: (_, row) => (row.usedAt === null ? '-' : formatDateTime(row.usedAt)),
          },
          {
            title: t('vouchers.actions'),
            render: (_, row) =>
              row.status === 'unused' && (
                <Popconfirm
                  title={t('vouchers.useConfirm', { amount: fenToYuan(row.amountFen) })}
                  okText={t('vouchers.useOk')}
                  okButtonProps={{ className: 'voucher-use-ok' }}
                  onConfirm={() => use.mutate(row.id)}
                  disabled={free}
                >
                  <Button
                    type="link"
                    size="small"
                    disabled={free}
                    loading={use.isPending && use.variables === row.id}
                    className="voucher-use"
                  >
                    {t('vouchers.use')}
                  </Button>
                </Popconfirm>
              ),
          },
        ]}
      />
    </Flex>
  );
}

function PackagesTab() {
  const { t, i18n } = useTranslation();
  const packages = useQuery({ queryKey: ['benefitPackages'], queryFn: fetchBenefitPackages });
  if (packages.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  return (
    <Flex vertical gap={16}>
      <Typography.Text type="secondary">{t('vouchers.packagesHint')}</Typography.Text>
      <Table<BenefitPackageView>
        rowKey="id"
        className="coupons-packages"
        loading={packages.isPending}
        dataSource={packages.data ?? []}
        scroll={{ x: true }}
        pagination={{ pageSize: PAGE_SIZE, hideOnSinglePage: true, showSizeChanger: false }}
        locale={{ emptyText: <Empty description={t('vouchers.noPackages')} /> }}
        columns={[
          { title: t('vouchers.type'), render: (_, row) => productLabel(row.type, i18n.language) },
          {
            title: t('vouchers.quota'),
            render: (_, row) => <span className="nowrap">{row.quota.toLocaleString('en-US')}</span>,
          },
          {
            title: t('vouchers.usage'),
            render: (_, row) => (
              <div style={{ minWidth: 180 }}>
                <Progress
                  percent={Math.min(100, Math.floor((row.used * 100) / row.quota))}
                  size="small"
                  status={row.status === 'active' ? 'active' : 'normal'}
                />
                <Typography.Text type="secondary" className="nowrap">
                  {row.used.toLocaleString('en-US')} / {row.quota.toLocaleString('en-US')}
                </Typography.Text>
              </div>
            ),
          },
          {
            title: t('vouchers.status'),
            render: (_, row) => (
              <Tag color={PACKAGE_COLOURS[row.status]} className={`package-status-${row.status}`}>
                {t(`vouchers.packageStatuses.${row.status}`)}
              </Tag>
            ),
          },
          { title: t('vouchers.startsAt'), render: (_, row) => formatDateTime(row.startsAt) },
          { title: t('vouchers.expiresAt'), render: (_, row) => formatDateTime(row.expiresAt) },
        ]}
      />
    </Flex>
  );
}
