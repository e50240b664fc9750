import type { ExportStatus, ExportType } from '@herald/shared';
import type { Generated } from 'kysely';

/** Row types of offline exports (migration 0025). */
export interface DataExportOfflinesTable {
  id: Generated<number>;
  account_id: number;
  /** Who asked; null once that user is removed. */
  user_id: number | null;
  type: ExportType;
  /** JSON of the type's filters as the shared schema parsed them (without `type`). */
  filter: string;
  start_time: number;
  end_time: number;
  /** Language of the CSV header: the requester's at the time of asking. */
  lang: string;
  status: ExportStatus;
  progress: Generated<number>;
  row_count: Generated<number>;
  /** Relative to the data directory. */
  file_path: string | null;
  file_size: number | null;
  error: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
  expires_at: number | null;
  downloaded_at: number | null;
}
