import type {
  AcceptedRecipientView,
  TestSendApiUserView,
  TestSendParamInput,
  TestSendQuickInput,
  TestSendResult,
  TestSendTemplateInput,
} from '@herald/shared/schemas/send.schema';
import { http } from '../infra/http/http-client.ts';

/** Test send (console-spec §2 /sendRelative/test; `/mail/testSend/*`, code 12). */
interface DataBody<T> {
  data: T;
}

const json = { format: 'json', toast: false } as const;

export const fetchTestSendApiUsers = async () =>
  (await http.get<DataBody<TestSendApiUserView[]>>('/mail/testSend/apiUsers')).data;

export const fetchRecentTestSends = async () =>
  (await http.get<DataBody<AcceptedRecipientView[]>>('/mail/testSend/recent')).data;

export const sendQuickTest = async (input: TestSendQuickInput) =>
  (await http.post<DataBody<TestSendResult>>('/mail/testSend/quick', input, json)).data;

export const sendParamTest = async (input: TestSendParamInput) =>
  (await http.post<DataBody<TestSendResult>>('/mail/testSend/param', input, json)).data;

export const sendTemplateTest = async (input: TestSendTemplateInput) =>
  (await http.post<DataBody<TestSendResult>>('/mail/testSend/template', input, json)).data;
