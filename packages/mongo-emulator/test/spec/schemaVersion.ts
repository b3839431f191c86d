// Which test files this runner may process: schema versions 1.0 up to 1.20 of the unified test
// format ("Test Runner Support": same major, minor not newer than supported). What 1.13 to 1.20
// added (the spec's changelog) is either implemented or skips the test that uses it, never
// ignored: 1.13 observeLogMessages/expectLogMessages (skip) and $$matchAsDocument/$$matchAsRoot
// (matcher.ts), 1.14 and 1.20 topologyDescriptionChangedEvent (an SDAM event: skip), 1.15 an
// event's databaseName (expectEvents.ts), 1.16 ignoreMessages/ignoreExtraMessages (inside
// expectLogMessages: skip), 1.17 serverHeartbeat events (SDAM: skip), 1.18 named KMS providers
// (clientEncryption: skip), 1.19 runOnRequirement authMechanism (requirements.ts) and uriOptions
// placeholders (clientEntity.ts: skip).

export const SUPPORTED_SCHEMA_VERSION = [1, 20] as const;

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
