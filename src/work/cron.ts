import { CronExpressionParser } from 'cron-parser';

// Schedules' cron expressions (flow 8), read by `cron-parser`: 5 fields (minute first) or 6
// (seconds first), in an IANA time zone. Daylight-saving transitions are the library's (5.10.7,
// CronDate on luxon's zones): a wall time that does not exist on a spring-forward day fires at the
// same wall time an hour later (02:30 in New York on 8 March 2026 fires at 03:30 EDT), and a wall
// time that happens twice on a fall-back day fires once, at its first instant (01:30 EDT, not 01:30
// EST). Hourly expressions simply follow the instants: 23 fires that spring day, 25 that autumn one.

export type CronCheck = { ok: true; fields: number } | { ok: false; detail: string };

/** Whether `timeZone` is an IANA zone this runtime knows (Intl throws a RangeError otherwise). */
export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** Checks a cron expression and zone; the detail says what is wrong, for InvalidSchedule. */
export function checkCron(cron: string, timeZone: string): CronCheck {
  if (!isTimeZone(timeZone))
    return {
      ok: false,
      detail: `timeZone ${JSON.stringify(timeZone)} is not an IANA time zone (e.g. Europe/Paris, America/New_York, UTC)`,
    };
  const fields = cron.trim().split(/\s+/).length;
  if (!cron.trim().startsWith('@') && (fields < 5 || fields > 6)) {
    return {
      ok: false,
      detail: `cron ${JSON.stringify(cron)} has ${fields} fields: expected 5 (minute hour day-of-month month day-of-week) or 6 (seconds first)`,
    };
  }
  try {
    const expression = CronExpressionParser.parse(cron, { tz: timeZone, currentDate: new Date(0) });
    expression.next();
  } catch (error) {
    return {
      ok: false,
      detail: `cron ${JSON.stringify(cron)}: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  return { ok: true, fields };
}

/** The first fire time strictly after `after`. */
export function nextAfter(cron: string, timeZone: string, after: Date): Date {
  return CronExpressionParser.parse(cron, { tz: timeZone, currentDate: after }).next().toDate();
}

/** Fire times in (`after`, `through`], oldest first, at most `max` of them (the oldest ones). */
export function firesBetween(cron: string, timeZone: string, after: Date, through: Date, max: number): Date[] {
  const expression = CronExpressionParser.parse(cron, { tz: timeZone, currentDate: after });
  const fires: Date[] = [];
  while (fires.length < max) {
    const next = expression.next().toDate();
    if (next.getTime() > through.getTime()) break;
    fires.push(next);
  }
  return fires;
}

/** Fire times in (`after`, `before`), newest first, at most `max` of them (the newest ones). */
export function firesBefore(cron: string, timeZone: string, after: Date, before: Date, max: number): Date[] {
  const expression = CronExpressionParser.parse(cron, { tz: timeZone, currentDate: before });
  const fires: Date[] = [];
  while (fires.length < max && expression.hasPrev()) {
    const previous = expression.prev().toDate();
    if (previous.getTime() <= after.getTime()) break;
    if (previous.getTime() < before.getTime()) fires.push(previous);
  }
  return fires;
}
