import type { ColumnDataType, ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/** What a migration gets besides the connection: the dialect and its identity-column shape. */
export interface MigrationContext {
  dialect: Dialect;
  /** Spread into addColumn('id', ...id): an auto-incrementing integer primary key. */
  id: [ColumnDataType, (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder];
}

export interface HeraldMigration {
  up(db: Kysely<unknown>, context: MigrationContext): Promise<void>;
}

export function migrationContext(dialect: Dialect): MigrationContext {
  return {
    dialect,
    id:
      dialect === 'postgres'
        ? ['bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity()]
        : ['integer', (c) => c.primaryKey().autoIncrement()],
  };
}
