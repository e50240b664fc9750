import type {
  AdminInvoiceView,
  InvoiceApplyInput,
  InvoiceProfileInput,
  InvoiceProfileView,
  InvoiceStatus,
  InvoiceSummaryView,
  InvoicesPage,
  InvoiceType,
  InvoiceView,
} from '@herald/shared/schemas/invoice.schema';
import { http } from '../infra/http/http-client.ts';

/**
 * Invoices (console-spec §7 `/user/invoice`, `/order/billTicketOrders`): the account's invoice
 * profile, the apply screen's figures, its invoices, an application, a resubmission after a
 * rejection and a void; and the operators' processing under `/admin/invoices`.
 */
export type {
  AdminInvoiceView,
  InvoiceApplyInput,
  InvoiceProfileInput,
  InvoiceProfileView,
  InvoiceStatus,
  InvoiceSummaryView,
  InvoiceType,
  InvoiceView,
};

interface DataBody<T> {
  data: T;
}

const BILLS = '/order/billTicketOrders';

export const fetchInvoiceProfile = async () =>
  (await http.get<DataBody<InvoiceProfileView | null>>('/user/invoice')).data;

export const saveInvoiceProfile = async (profile: InvoiceProfileInput) =>
  (await http.put<DataBody<InvoiceProfileView>>('/user/invoice', profile, { format: 'json' })).data;

export const fetchInvoiceSummary = async () =>
  (await http.get<DataBody<InvoiceSummaryView>>(`${BILLS}/summary`)).data;

export const fetchInvoices = async (query: { pageNum: number; pageSize: number; status?: InvoiceStatus }) =>
  (await http.get<DataBody<InvoicesPage>>(BILLS, query)).data;

export const fetchInvoice = async (id: number) =>
  (await http.get<DataBody<InvoiceView>>(`${BILLS}/${id}`)).data;

export const applyInvoice = async (input: InvoiceApplyInput) =>
  (await http.post<DataBody<InvoiceView>>(BILLS, input, { format: 'json' })).data;

export const resubmitInvoice = async (id: number, input: InvoiceApplyInput) =>
  (await http.post<DataBody<InvoiceView>>(`${BILLS}/${id}/resubmit`, input, { format: 'json' })).data;

export const voidInvoice = async (id: number) =>
  (await http.post<DataBody<InvoiceView>>(`${BILLS}/${id}/void`, {}, { format: 'json' })).data;

export const fetchAdminInvoices = async (query: {
  pageNum: number;
  pageSize: number;
  status?: InvoiceStatus;
  type?: InvoiceType;
  accountId?: number;
}) => (await http.get<DataBody<InvoicesPage<AdminInvoiceView>>>('/admin/invoices', query)).data;

export type AdminInvoiceAction = 'invoiced' | 'shipped' | 'emailed' | 'reject' | 'void';

/** An operator's step: `shipped` takes the express number, `reject` the reason. */
export const processInvoice = async (
  id: number,
  action: AdminInvoiceAction,
  body: { expressNo?: string; reason?: string } = {},
) =>
  (await http.post<DataBody<AdminInvoiceView>>(`/admin/invoices/${id}/${action}`, body, { format: 'json' }))
    .data;
