import type {
  BenefitPackageView,
  PackageStatus,
  VoucherStatus,
  VouchersPage,
  VoucherUseView,
  VoucherView,
} from '@herald/shared/schemas/voucher.schema';
import { http } from '../infra/http/http-client.ts';

/**
 * Vouchers and benefit packages (console-spec §7 `/vouchers`, `/userBenefitPackage`): the account's
 * vouchers, claiming a bare one by its code, using one (credits the balance), and its packages.
 */
export type { BenefitPackageView, PackageStatus, VoucherStatus, VouchersPage, VoucherView };

interface DataBody<T> {
  data: T;
}

export const fetchVouchers = async (query: { pageNum: number; pageSize: number; status?: VoucherStatus }) =>
  (await http.get<DataBody<VouchersPage>>('/vouchers', query)).data;

export const claimVoucher = async (code: string) =>
  (await http.post<DataBody<VoucherView>>('/vouchers/claim', { code }, { format: 'json' })).data;

export const redeemVoucher = async (id: number) =>
  (await http.post<DataBody<VoucherUseView>>(`/vouchers/${id}/use`, {}, { format: 'json' })).data;

export const fetchBenefitPackages = async () =>
  (await http.get<DataBody<BenefitPackageView[]>>('/userBenefitPackage')).data;
