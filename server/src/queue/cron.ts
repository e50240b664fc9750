import { CronExpressionParser } from 'cron-parser';

/** The first tick of `pattern` strictly after `after` (ms epoch), in `timezone`. */
export function nextCronTick(pattern: string, timezone: string, after: number): number {
  return CronExpressionParser.parse(pattern, { currentDate: new Date(after), tz: timezone })
    .next()
    .getTime();
}
