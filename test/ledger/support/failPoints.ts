import type { MongoClient } from 'mongodb';

/**
 * Sets mongod's `failCommand` fail point for the clients named `appName` only, so that test
 * files sharing the engine never see each other's faults. Returns the function that turns it off.
 */
export async function failCommand(
  client: MongoClient,
  appName: string,
  mode: 'alwaysOn' | { times: number } | { skip: number },
  data: Record<string, unknown> & { failCommands: string[] },
): Promise<() => Promise<void>> {
  const admin = client.db('admin');
  await admin.command({ configureFailPoint: 'failCommand', mode, data: { ...data, appName } });
  return async () => {
    await admin.command({ configureFailPoint: 'failCommand', mode: 'off' });
  };
}
