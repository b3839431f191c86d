// Which test files this runner may process: schema versions 1.0 up to 1.12 of the unified test
// format ("Test Runner Support": same major, minor not newer than supported).

export const SUPPORTED_SCHEMA_VERSION = [1, 12] as const;

/** The numeric components of a version string; anything after `major.minor.patch` is dropped. */
export function parseVersion(version: string): [number, number, number] {
  const match = /^(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(version);
  if (match === null) throw new Error(`malformed version string "${version}"`);
  return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
}

export function compareVersions(a: string, b: string): number {
  const [x, y] = [parseVersion(a), parseVersion(b)];
  for (let i = 0; i < 3; i += 1) {
    if (x[i] !== y[i]) return x[i]! - y[i]!;
  }
  return 0;
}

/** Null when the file can be run, else why not. */
export function schemaVersionProblem(schemaVersion: unknown): string | null {
  if (typeof schemaVersion !== 'string') return 'the file has no schemaVersion string';
  const [major, minor] = parseVersion(schemaVersion);
  const [supportedMajor, supportedMinor] = SUPPORTED_SCHEMA_VERSION;
  if (major !== supportedMajor || minor > supportedMinor) {
    return `schemaVersion ${schemaVersion} is not supported (this runner supports ${supportedMajor}.0 to ${supportedMajor}.${supportedMinor})`;
  }
  return null;
}
