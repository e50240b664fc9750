/** Polls `check` until it returns a truthy value or `timeoutMs` passes; the error names `what`. */
export async function waitFor<T>(
  what: string,
  check: () => T | Promise<T>,
  { timeoutMs = 10_000, intervalMs = 20 } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await check();
    if (last) return last as NonNullable<T>;
    await sleep(intervalMs);
  }
  throw new Error(
    `timed out after ${timeoutMs} ms waiting for ${what} (last value: ${JSON.stringify(last)})`,
  );
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Rate limits count in fixed windows (rate-limiter.ts): a run that straddles a window's end sees
 * its hits split over two. Waits, when less than 10 s of the current window are left, for the
 * next one.
 */
export async function awayFromWindowEnd(windowMs: number): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < 10_000) await sleep(left + 50);
}
