import { BEIJING_OFFSET_MS } from '@herald/shared';
import { type RawBuilder, sql } from 'kysely';

const DAY_MS = 86_400_000;

/**
 * The Beijing day of a millisecond column as days since 1970-01-01 (`epochDay` names it), to
 * group by. Literals, not parameters: PostgreSQL matches the grouped expression to the selected
 * one by its text.
 */
export function beijingDayOf(column: string): RawBuilder<number> {
  return sql<number>`(${sql.ref(column)} + ${sql.lit(BEIJING_OFFSET_MS)}) / ${sql.lit(DAY_MS)}`;
}
