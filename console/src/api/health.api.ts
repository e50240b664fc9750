import type { HealthView } from '@herald/shared/schemas/health.schema';

/** `GET /healthz`, answered by the server outside the console API (no /v3/api base, no auth). */
export async function fetchHealth(signal?: AbortSignal): Promise<HealthView> {
  const response = await fetch('/healthz', { signal, headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`GET /healthz answered ${response.status}`);
  const body: unknown = await response.json();
  if (typeof body !== 'object' || body === null || (body as { status?: unknown }).status !== 'ok') {
    throw new Error('GET /healthz did not report status ok');
  }
  return { status: 'ok' };
}
