import type { Database } from '../../db/database.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { DkimKeys } from '../../mta/ports.ts';
import { loadDkimKey } from './dkim-key.ts';
import { findDomainByName } from './domains.repo.ts';

/** The delivery pipeline's DKIM keys: the sending domain's row, its key unsealed and parsed. */
export function dkimKeysOf(database: Database, secretBox: SecretBox): DkimKeys {
  return {
    async keyFor(accountId, domain) {
      const row = await findDomainByName(database, accountId, domain);
      if (!row) return null;
      return { id: `${row.id}:${row.dkim_selector}`, ...loadDkimKey(secretBox, row) };
    },
  };
}
