import type { Generated } from 'kysely';

/** Row types of every table, in step with migrations/. */
export interface DB {
  accounts: AccountsTable;
  users: UsersTable;
  sessions: SessionsTable;
  login_events: LoginEventsTable;
  jobs: JobsTable;
  queue_settings: QueueSettingsTable;
  job_schedules: JobSchedulesTable;
  nodes: NodesTable;
}

/** The tenant. Every tenant-owned table carries account_id referencing it. */
export interface AccountsTable {
  id: Generated<number>;
  username: string;
  /** Prepaid balance in fen (1/100 yuan). */
  balance_fen: Generated<number>;
  /** 1 for accounts that came through the Huawei Cloud marketplace (their menu hides teammates). */
  is_huawei_yun: Generated<number>;
  /** `platform` for the operators' own account, created on first start; `customer` otherwise. */
  kind: Generated<'customer' | 'platform'>;
  created_at: number;
  updated_at: number;
}

/** A person who logs in to the console: the account's owner or a member (teammate). */
export interface UsersTable {
  id: Generated<number>;
  account_id: number;
  username: string;
  email: string;
  phone: string | null;
  password_hash: string | null;
  is_owner: number;
  /** Comma-separated permission codes of a member; an owner holds every code. */
  permissions: Generated<string>;
  status: 'inactive' | 'active' | 'suspended';
  /** Consecutive failed logins; reset by a successful one. */
  failed_logins: Generated<number>;
  locked_until: number | null;
  created_at: number;
  updated_at: number;
}

/** The login log shown on the security screen (time, IP, result). */
export interface LoginEventsTable {
  id: Generated<number>;
  account_id: number | null;
  user_id: number | null;
  login_name: string;
  ip: string | null;
  user_agent: string | null;
  result: 'success' | 'bad_credentials' | 'locked' | 'inactive' | 'suspended';
  created_at: number;
}

/** A console login. Only a SHA-256 of the token is stored. */
export interface SessionsTable {
  id: Generated<number>;
  token_hash: string;
  account_id: number;
  user_id: number;
  ip: string | null;
  user_agent: string | null;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  revoked_at: number | null;
}

export interface JobsTable {
  id: Generated<number>;
  queue: string;
  name: string;
  payload: string;
  /** waiting (run_at may be in the future: delayed), active, completed, dead. */
  state: 'waiting' | 'active' | 'completed' | 'dead';
  priority: number;
  run_at: number;
  attempts: number;
  max_attempts: number;
  backoff_ms: number;
  /** Cleared when the job finishes, so the key can be used again. */
  dedupe_key: string | null;
  lease_token: string | null;
  lease_until: number | null;
  last_error: string | null;
  created_at: number;
  finished_at: number | null;
}

export interface QueueSettingsTable {
  queue: string;
  paused: number;
  updated_at: number;
}

export interface JobSchedulesTable {
  id: string;
  cron: string;
  timezone: string;
  queue: string;
  name: string;
  payload: string;
  next_run_at: number;
  last_run_at: number | null;
  updated_at: number;
}

/** One row per running Herald process, for operators and readiness. */
export interface NodesTable {
  id: string;
  roles: string;
  hostname: string;
  pid: number;
  started_at: number;
  last_seen_at: number;
  stopped_at: number | null;
}
