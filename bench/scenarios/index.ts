// Every scenario, in the order a full run takes them. A name on the command line picks one
// scenario, or every scenario whose name starts with it (`withdraw` runs all three withdrawals).
import type { Scenario } from '../scenario.ts';
import { entriesPageScenario } from './entriesPage.ts';
import { replayScenario } from './replay.ts';
import { transferScenario } from './transfer.ts';
import { withdrawScenario } from './withdraw.ts';
import { workItemsScenario } from './workItems.ts';

export const scenarios: readonly Scenario[] = Object.freeze([
  withdrawScenario({ name: 'withdraw-c1', concurrency: 1, accounts: 1, ops: { full: 2_000, quick: 20 }, targetOpsPerSecond: 100 }),
  withdrawScenario({ name: 'withdraw-c32-hot', concurrency: 32, accounts: 4, ops: { full: 4_000, quick: 64 }, targetOpsPerSecond: 300 }),
  withdrawScenario({ name: 'withdraw-c32-spread', concurrency: 32, accounts: 512, ops: { full: 4_000, quick: 64 }, targetOpsPerSecond: 300 }),
  replayScenario,
  transferScenario,
  workItemsScenario,
  entriesPageScenario,
]);

/** The scenarios a command line asks for; all of them when it names none. */
export function selectScenarios(names: readonly string[]): { selected: Scenario[]; unknown: string[] } {
  if (names.length === 0) return { selected: [...scenarios], unknown: [] };
  const unknown = names.filter((name) => !scenarios.some((scenario) => scenario.name.startsWith(name)));
  const selected = scenarios.filter((scenario) => names.some((name) => scenario.name.startsWith(name)));
  return { selected, unknown };
}
