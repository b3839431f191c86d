// The development admin key of a server started without API_KEYS (`npm start` on a laptop), kept
// in DATA_DIR so that a restart keeps the key the developer already pasted into curl, the console
// and a worker's API_KEY. The file holds the bare token, readable by its owner only (0600, in a
// 0700 directory when this creates it). Never used in production: config requires API_KEYS there.
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateApiKey } from './apiKeys.ts';

export const ADMIN_KEY_FILE = 'admin-key';
const TOKEN = /^[A-Za-z0-9_-]{16,512}$/;

export interface StoredAdminKey {
  token: string;
  path: string;
  /** True when this start made the key (no file yet); false when it was read back. */
  created: boolean;
}

/** Reads `<dataDir>/admin-key`, or makes and writes a new key when there is none (or it is not a key). */
export async function loadOrCreateAdminKey(dataDir: string): Promise<StoredAdminKey> {
  const path = join(dataDir, ADMIN_KEY_FILE);
  const existing = await readKey(path);
  if (existing !== null) return { token: existing, path, created: false };
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const token = generateApiKey();
  try {
    // 'wx': two processes starting at once on one DATA_DIR agree on the first one's key.
    await writeFile(path, `${token}\n`, { flag: 'wx', mode: 0o600 });
    return { token, path, created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const written = await readKey(path);
    if (written !== null) return { token: written, path, created: false };
    // A file that is not a key (emptied, edited): replace it rather than refuse to start.
    await writeFile(path, `${token}\n`, { mode: 0o600 });
    await chmod(path, 0o600);
    return { token, path, created: true };
  }
}

async function readKey(path: string): Promise<string | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const token = text.trim();
  if (!TOKEN.test(token)) return null;
  // A key readable by others (copied in, a umask) is narrowed to its owner.
  if (((await stat(path)).mode & 0o077) !== 0) await chmod(path, 0o600);
  return token;
}
