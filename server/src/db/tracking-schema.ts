import type { TrackDomainStatus } from '@herald/shared';
import type { Generated } from 'kysely';

/** Row types of tracking (migration 0021). */
export interface TrackingDomainsTable {
  id: Generated<number>;
  account_id: number;
  /** Lower-case host name, unique across the platform. */
  name: string;
  open_enabled: Generated<number>;
  click_enabled: Generated<number>;
  unsubscribe_enabled: Generated<number>;
  is_default: Generated<number>;
  status: Generated<TrackDomainStatus>;
  /** The CNAME target the last check found. */
  cname_found: string | null;
  check_error: string | null;
  checked_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface SslCertificatesTable {
  id: Generated<number>;
  account_id: number;
  domain: string;
  /** The PEM certificate (chain), as uploaded. */
  certificate: string;
  /** The PEM private key, sealed with the secret box (context: the domain). */
  private_key_sealed: string;
  subject: string;
  issuer: string;
  fingerprint: string;
  valid_from: number;
  valid_to: number;
  created_at: number;
  updated_at: number;
}

/** A recipient's first human open and first click; a NULL column means none yet. */
export interface RecipientTracksTable {
  recipient_id: number;
  account_id: number;
  first_open_at: number | null;
  first_click_at: number | null;
}
