import { arch, cpus, hostname, platform, totalmem, type as osType } from 'node:os';
import type { CommandDefinition } from './types.ts';

export const hostInfo: CommandDefinition = {
  names: ['hostInfo'],
  run: () => ({
    system: {
      currentTime: new Date(),
      hostname: hostname(),
      cpuAddrSize: 64,
      memSizeMB: BigInt(Math.floor(totalmem() / (1024 * 1024))),
      numCores: cpus().length,
      cpuArch: arch(),
    },
    os: { type: osType(), name: platform() },
    extra: {},
  }),
};
