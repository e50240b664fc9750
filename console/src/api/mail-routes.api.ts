import type { MailRouteInput, MailRouteView } from '@herald/shared/schemas/mail-route.schema';
import { http } from '../infra/http/http-client.ts';

/** Receive routes (console calls `/config/routes`, `/config/routes/verifyCode`). */
export type { MailRouteInput, MailRouteView };

const json = { format: 'json' } as const;

export const fetchMailRoutes = async () => (await http.get<{ data: MailRouteView[] }>('/config/routes')).data;

export const createMailRoute = async (input: MailRouteInput) =>
  (await http.post<{ data: MailRouteView }>('/config/routes', { ...input }, json)).data;

export const deleteMailRoute = (id: number) => http.delete(`/config/routes/${id}`);

export const sendMailRouteCode = (email: string) => http.post('/config/routes/verifyCode', { email }, json);
