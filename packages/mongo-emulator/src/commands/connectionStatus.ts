import type { CommandDefinition } from './types.ts';

/** No authentication: nobody is authenticated, and nobody needs to be. */
export const connectionStatus: CommandDefinition = {
  names: ['connectionStatus'],
  run: () => ({ authInfo: { authenticatedUsers: [], authenticatedUserRoles: [] } }),
};
