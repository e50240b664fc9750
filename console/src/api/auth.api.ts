import { http } from '../infra/http/http-client.ts';

/** Revokes the session on the server. Quiet: on a 401 the token was dead already. */
export async function postLogout(): Promise<void> {
  await http.post('/loginOut', undefined, { quiet: true });
}
