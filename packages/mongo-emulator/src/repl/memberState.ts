// A member's replication state, as mongod numbers and names it (src/mongo/db/repl/member_state.h).

/** mongod's MemberState codes. */
export const MemberState = Object.freeze({
  STARTUP: 0,
  PRIMARY: 1,
  SECONDARY: 2,
  RECOVERING: 3,
  STARTUP2: 5,
  UNKNOWN: 6,
  DOWN: 8,
  ROLLBACK: 9,
  REMOVED: 10,
});

const STATE_NAMES: Record<number, string> = {
  0: 'STARTUP',
  1: 'PRIMARY',
  2: 'SECONDARY',
  3: 'RECOVERING',
  5: 'STARTUP2',
  6: 'UNKNOWN',
  8: '(not reachable/healthy)',
  9: 'ROLLBACK',
  10: 'REMOVED',
};

/** The name replSetGetStatus and the logs give a state (MemberState::toString). */
export function memberStateName(state: number): string {
  return STATE_NAMES[state] ?? 'UNKNOWN';
}
