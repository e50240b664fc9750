import type { Core } from '../../compose.ts';

/**
 * The public tracking endpoints, protocol-neutral so the HTTP app and the tracking HTTPS
 * listener answer alike:
 *
 *   GET|HEAD /t/o/<token>.gif  the open pixel: a 1×1 transparent GIF that no cache may keep
 *   GET|HEAD /t/c/<token>      the click redirect: 302 to the link the token names
 *   GET|HEAD /s/<code>         an SMS short link: 302 to its link, the click kept for its number
 *
 * A token that is not ours (edited, truncated) gets 404; nothing else is revealed.
 */
export interface TrackingRequest {
  method: string;
  path: string;
  ip: string;
  userAgent: string;
}

export interface TrackingResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer | string;
}

export const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

const NO_CACHE = {
  'cache-control': 'no-store, no-cache, must-revalidate, private, max-age=0',
  pragma: 'no-cache',
  expires: '0',
};

export const OPEN_PATH = /^\/t\/o\/([A-Za-z0-9_.-]{1,4096})$/;
export const CLICK_PATH = /^\/t\/c\/([A-Za-z0-9_.-]{1,16384})$/;
export const SHORT_PATH = /^\/s\/([0-9A-Za-z]{3,12})$/;

const notFound: TrackingResponse = {
  status: 404,
  headers: { 'content-type': 'text/plain; charset=utf-8', ...NO_CACHE },
  body: 'Not found',
};

export async function answerTracking(core: Core, request: TrackingRequest): Promise<TrackingResponse> {
  const path = request.path.split('?')[0] ?? '';
  const hit = { method: request.method, ip: request.ip, userAgent: request.userAgent };
  const open = OPEN_PATH.exec(path);
  if (open) {
    if (!(await core.tracking.open(open[1] ?? '', hit))) return notFound;
    return { status: 200, headers: { 'content-type': 'image/gif', ...NO_CACHE }, body: PIXEL };
  }
  const click = CLICK_PATH.exec(path);
  if (click) {
    const url = await core.tracking.click(click[1] ?? '', hit);
    if (!url) return notFound;
    return {
      status: 302,
      headers: { location: url, 'referrer-policy': 'no-referrer', ...NO_CACHE },
      body: '',
    };
  }
  const short = SHORT_PATH.exec(path);
  if (short) {
    const url = await core.smsLinks.click(short[1] ?? '', hit);
    if (!url) return notFound;
    return {
      status: 302,
      headers: { location: url, 'referrer-policy': 'no-referrer', ...NO_CACHE },
      body: '',
    };
  }
  return notFound;
}
