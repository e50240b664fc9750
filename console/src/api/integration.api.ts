import type { IntegrationView } from '@herald/shared/samples/send-samples';
import { http } from '../infra/http/http-client.ts';

export type { IntegrationView };

/** Where a developer's code sends (the integration page); from the deployment's configuration. */
export const fetchIntegration = async () =>
  (await http.get<{ data: IntegrationView }>('/mail/integration')).data;
