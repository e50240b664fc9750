import type {
  IssuedGatewaySecret,
  SmsGatewayProtocol,
  SmsGatewayUsersList,
  SmsGatewayUserView,
} from '@herald/shared/schemas/sms-gateway-user.schema';
import { http } from '../infra/http/http-client.ts';

/** Gateway users: CMPP_USERs and SMPP system ids (console API `/sms/gatewayUsers`). */
interface DataBody<T> {
  data: T;
}

export type { IssuedGatewaySecret, SmsGatewayUsersList, SmsGatewayUserView };

/** What the form sends: the allowed addresses as typed, one a line. */
export interface GatewayUserForm {
  protocol: SmsGatewayProtocol;
  name: string;
  allowedIps: string;
  window: number;
  perSecond: number;
}

export const fetchGatewayUsers = async () =>
  (await http.get<DataBody<SmsGatewayUsersList>>('/sms/gatewayUsers')).data;

export const createGatewayUser = async (input: GatewayUserForm) =>
  (await http.post<DataBody<IssuedGatewaySecret>>('/sms/gatewayUsers', { ...input })).data;

export const resetGatewaySecret = async (id: number) =>
  (await http.post<DataBody<IssuedGatewaySecret>>(`/sms/gatewayUsers/${id}/secret`, {})).data;

export const deleteGatewayUser = async (id: number) => {
  await http.delete<DataBody<null>>(`/sms/gatewayUsers/${id}`);
};
