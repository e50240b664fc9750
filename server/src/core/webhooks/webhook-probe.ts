import { AppError, type WebhookTestResult } from '@herald/shared';
import type { UrlGuard } from './url-guard.ts';
import type { WebhookClient } from './webhook-client.ts';

/**
 * A signed sample push to a receiver's URL, for email webhooks and SMSHooks alike: the SSRF guard
 * vets where the URL points first (its own refusals are coded errors), then one POST.
 */
export async function pushSample(
  guard: UrlGuard,
  client: WebhookClient,
  url: string,
  body: string,
): Promise<WebhookTestResult> {
  try {
    await guard.resolve(new URL(url).hostname);
  } catch (error) {
    if (error instanceof AppError) throw error;
    return { ok: false, status: null, durationMs: 0, error: (error as Error).message };
  }
  const { ok, status, durationMs, error } = await client.post(null, url, body);
  return { ok, status, durationMs, error };
}

/** The save-time check: the sample must be answered with 200 in time, else WEBHOOK_URL_TEST_FAILED. */
export async function probeUrl(
  guard: UrlGuard,
  client: WebhookClient,
  url: string,
  body: string,
): Promise<void> {
  const result = await pushSample(guard, client, url, body);
  if (!result.ok) {
    throw new AppError('WEBHOOK_URL_TEST_FAILED', { detail: result.error ?? `HTTP ${result.status}` });
  }
}
