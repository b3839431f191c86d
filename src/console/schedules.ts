// The schedules panel: each schedule with its cron and zone, its next fire and its last.
import { cell, labelled, tbody, time } from './dom.ts';
import type { Session } from './session.ts';

/** Schedules listed (by name); a deployment has a handful. */
const SCHEDULES_SHOWN_MAX = 100;

export async function refreshSchedules(session: Session): Promise<void> {
  const schedules = await session.client.schedules({ first: SCHEDULES_SHOWN_MAX });
  tbody('schedules').replaceChildren(
    ...schedules.map((schedule) => {
      const row = document.createElement('tr');
      const last =
        schedule.lastFiredPeriod === null
          ? 'not yet'
          : `${new Date(schedule.lastFiredPeriod).toLocaleString()} (fired ${time(schedule.lastFiredAt)})`;
      row.append(
        cell(schedule.name),
        cell(schedule.kind, 'kind'),
        cell(`${schedule.cron} ${schedule.timeZone}, catch-up ${schedule.catchUp}`),
        cell(schedule.nextFireAt === null ? '–' : new Date(schedule.nextFireAt).toLocaleString()),
        cell(last),
      );
      return labelled('schedules', row);
    }),
  );
}
