import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { TrackingPlan } from '../../lib/link-tracking.ts';
import type { TrackedMessage, TrackingPlans } from '../../mta/ports.ts';
import { trackingSwitches } from './tracking.repo.ts';
import { defaultVerifiedDomains } from './tracking-domains.repo.ts';

/**
 * The tracking plan of each message of a claimed batch, in two queries whatever the batch holds:
 * its API_USER's open and click switches (overridden by the message's X-SMTPAPI `filters`, as
 * SendCloud does), and the base of its tracking URLs, which is the account's default tracking
 * domain when that is verified and has the kind switched on, else the platform's tracking URL.
 */
export interface TrackingSources {
  /** The platform's tracking base (HERALD_TRACKING_URL), without a trailing slash. */
  url: string;
  /** The tracking HTTPS port, when a listener serves uploaded certificates. */
  httpsPort: number | undefined;
}

type Filters = Record<string, { settings?: Record<string, string | number> }>;

/** The delivery pipeline's tracking plans. */
export function trackingPlansOf(db: Kysely<DB>, sources: TrackingSources): TrackingPlans {
  return { plansFor: (messages) => trackingPlans(db, messages, sources) };
}

async function trackingPlans(
  db: Kysely<DB>,
  messages: TrackedMessage[],
  sources: TrackingSources,
  now = Date.now(),
): Promise<Map<number, TrackingPlan>> {
  const plans = new Map<number, TrackingPlan>();
  const apiUserIds = [...new Set(messages.map((m) => m.api_user_id).filter((id) => id !== null))];
  const filtered = messages.filter((m) => m.xsmtpapi?.includes('"filters"'));
  if (apiUserIds.length === 0 && filtered.length === 0) return plans;
  const switches = apiUserIds.length > 0 ? await trackingSwitches(db, apiUserIds) : [];
  const byApiUser = new Map(switches.map((s) => [Number(s.id), s]));
  const wanted = new Map<number, { open: boolean; click: boolean; accountId: number }>();
  for (const m of messages) {
    const s = m.api_user_id === null ? undefined : byApiUser.get(Number(m.api_user_id));
    let open = Boolean(s?.open_tracking);
    let click = Boolean(s?.click_tracking);
    const filters = m.xsmtpapi ? (JSON.parse(m.xsmtpapi) as { filters?: Filters }).filters : undefined;
    open = overridden(filters, 'open_tracking') ?? open;
    click = overridden(filters, 'click_tracking') ?? click;
    if (open || click) wanted.set(Number(m.id), { open, click, accountId: Number(m.account_id) });
  }
  if (wanted.size === 0) return plans;
  const accountIds = [...new Set([...wanted.values()].map((w) => w.accountId))];
  const domains = await defaultVerifiedDomains(db, accountIds, now);
  const byAccount = new Map(domains.map((d) => [Number(d.account_id), d]));
  for (const [id, w] of wanted) {
    const d = byAccount.get(w.accountId);
    const custom = d ? hostBase(d, sources) : sources.url;
    plans.set(id, {
      open: w.open,
      click: w.click,
      openBase: d?.open_enabled ? custom : sources.url,
      clickBase: d?.click_enabled ? custom : sources.url,
    });
  }
  return plans;
}

function overridden(filters: Filters | undefined, name: string): boolean | undefined {
  const enable = filters?.[name]?.settings?.enable;
  return enable === undefined ? undefined : String(enable) === '1';
}

function hostBase(domain: { name: string; cert_id: number | null }, sources: TrackingSources): string {
  if (domain.cert_id === null || sources.httpsPort === undefined) return `http://${domain.name}`;
  return `https://${domain.name}${sources.httpsPort === 443 ? '' : `:${sources.httpsPort}`}`;
}
