import { type Kysely, sql } from 'kysely';

/**
 * Teammates get a type (administrator, visitor, custom), a display name, the quick presets they
 * were given and who invited them; a custom teammate's per-code levels (full or read) move from
 * the comma list users.permissions into user_permissions. Members that existed before held every
 * listed code fully, so they become custom teammates with those codes at full.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('member_type', 'text').execute();
  await db.schema.alterTable('users').addColumn('display_name', 'text').execute();
  await db.schema
    .alterTable('users')
    .addColumn('member_roles', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('invited_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .execute();

  await db.schema
    .createTable('user_permissions')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code', 'integer', (c) => c.notNull())
    .addColumn('level', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_permissions_pk', ['account_id', 'user_id', 'code'])
    .execute();

  const members = await sql<{ id: number; account_id: number; permissions: string }>`
    select id, account_id, permissions from users where is_owner = 0`.execute(db);
  for (const member of members.rows) {
    await sql`update users set member_type = 'custom' where id = ${member.id}`.execute(db);
    const codes = new Set(member.permissions.split(',').filter(Boolean).map(Number));
    for (const code of codes) {
      if (!Number.isInteger(code)) continue;
      await sql`insert into user_permissions (account_id, user_id, code, level)
        values (${member.account_id}, ${member.id}, ${code}, 'full')`.execute(db);
    }
  }
  await db.schema.alterTable('users').dropColumn('permissions').execute();
}
