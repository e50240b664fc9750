import type { TestApp } from '../helpers/app.ts';

/** A real listening Herald for /apiv2 calls made the way SendCloud's examples make them. */
export async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}

export interface Envelope {
  result: boolean;
  statusCode: number;
  message: string;
  info: { emailIdList?: string[] } & Record<string, unknown>;
}

/** A plain form post (application/x-www-form-urlencoded), like SendCloud's curl and SDK examples. */
export async function postForm(
  base: string,
  path: string,
  fields: Record<string, string>,
  lang: 'zh-cn' | 'en' = 'zh-cn',
): Promise<Envelope> {
  const response = await fetch(`${base}/apiv2/${path}`, {
    method: 'POST',
    headers: { 'accept-language': lang },
    body: new URLSearchParams(fields),
  });
  if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
  return (await response.json()) as Envelope;
}

/** multipart/form-data with files, like SendCloud's attachment examples. */
export async function postMultipart(
  base: string,
  path: string,
  fields: Record<string, string>,
  files: { name: string; type: string; content: Buffer }[],
  lang: 'zh-cn' | 'en' = 'zh-cn',
): Promise<Envelope> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const file of files)
    form.append('attachments', new Blob([file.content], { type: file.type }), file.name);
  const response = await fetch(`${base}/apiv2/${path}`, {
    method: 'POST',
    headers: { 'accept-language': lang },
    body: form,
  });
  if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
  return (await response.json()) as Envelope;
}
