// runOnRequirements: whether the deployment under test can run a file or a test. The facts about
// the deployment are gathered once per run (ServerFacts) and each requirement is a pure check.
import type { Document, MongoClient } from 'mongodb';
import { compareVersions } from './schemaVersion.ts';
import { numbersEqual, numericValue } from './bsonTypes.ts';

export type Topology = 'single' | 'replicaset' | 'sharded' | 'load-balanced';

export interface ServerFacts {
  version: string;
  topology: Topology;
  auth: boolean;
  serverless: boolean;
  /** The runner's driver has no libmongocrypt: client-side encryption is never available. */
  csfle: boolean;
  /** Values of server parameters, looked up on demand; undefined when the server has none. */
  serverParameter(name: string): Promise<unknown>;
}

export async function gatherServerFacts(client: MongoClient, uri: string): Promise<ServerFacts> {
  const admin = client.db('admin');
  const buildInfo = await admin.command({ buildInfo: 1 });
  const hello = await admin.command({ hello: 1 });
  const versionArray = buildInfo.versionArray as unknown[] | undefined;
  const version = Array.isArray(versionArray)
    ? versionArray.slice(0, 3).map(Number).join('.')
    : String(buildInfo.version);
  const parameters = new Map<string, unknown>();
  return {
    version,
    topology: topologyOf(hello, uri),
    auth: /^mongodb(\+srv)?:\/\/[^/@]+@/.test(uri),
    serverless: process.env.SERVERLESS === '1',
    csfle: false,
    async serverParameter(name) {
      if (!parameters.has(name)) {
        const reply: Document | undefined = await admin.command({ getParameter: 1, [name]: 1 }).catch(() => undefined);
        parameters.set(name, reply?.[name]);
      }
      return parameters.get(name);
    },
  };
}

function topologyOf(hello: Document, uri: string): Topology {
  if (/[?&]loadBalanced=true/i.test(uri)) return 'load-balanced';
  if (hello.msg === 'isdbgrid') return 'sharded';
  if (typeof hello.setName === 'string') return 'replicaset';
  return 'single';
}

export interface RunOnRequirement {
  minServerVersion?: string;
  maxServerVersion?: string;
  topologies?: string[];
  serverless?: 'require' | 'forbid' | 'allow';
  serverParameters?: Record<string, unknown>;
  auth?: boolean;
  authMechanism?: string;
  csfle?: boolean;
}

/** Why one requirement is not met, or null when it is. */
export async function unmetRequirement(requirement: RunOnRequirement, facts: ServerFacts): Promise<string | null> {
  const { minServerVersion, maxServerVersion, topologies, serverless, auth, authMechanism, csfle } = requirement;
  if (minServerVersion !== undefined && compareVersions(facts.version, minServerVersion) < 0) {
    return `needs server >= ${minServerVersion} (server is ${facts.version})`;
  }
  if (maxServerVersion !== undefined && compareVersions(facts.version, maxServerVersion) > 0) {
    return `needs server <= ${maxServerVersion} (server is ${facts.version})`;
  }
  if (topologies !== undefined) {
    // "sharded" implies "sharded-replicaset" (MongoDB 3.6+ shards are always replica sets).
    const accepted = topologies.map((t) => (t === 'sharded-replicaset' ? 'sharded' : t));
    if (!accepted.includes(facts.topology))
      return `needs topology ${topologies.join('|')} (deployment is ${facts.topology})`;
  }
  if (serverless === 'require' && !facts.serverless) return 'needs Atlas Serverless';
  if (serverless === 'forbid' && facts.serverless) return 'cannot run on Atlas Serverless';
  if (auth !== undefined && auth !== facts.auth) return auth ? 'needs authentication' : 'needs authentication disabled';
  if (authMechanism !== undefined) return `needs auth mechanism ${authMechanism} (runner connects without auth)`;
  if (csfle !== undefined && csfle !== facts.csfle)
    return csfle ? 'needs client-side field level encryption' : 'needs CSFLE unavailable';
  for (const [name, expected] of Object.entries(requirement.serverParameters ?? {})) {
    const actual = await facts.serverParameter(name);
    if (!parameterMatches(expected, actual)) return `needs server parameter ${name}=${String(expected)}`;
  }
  return null;
}

function parameterMatches(expected: unknown, actual: unknown): boolean {
  const [e, a] = [numericValue(expected), numericValue(actual)];
  if (e !== undefined && a !== undefined) return numbersEqual(e, a);
  return expected === actual;
}

/** Null when at least one requirement is met (or there are none), else the reasons none is. */
export async function unmetRequirements(
  requirements: RunOnRequirement[] | undefined,
  facts: ServerFacts,
): Promise<string | null> {
  if (requirements === undefined || requirements.length === 0) return null;
  const reasons: string[] = [];
  for (const requirement of requirements) {
    const reason = await unmetRequirement(requirement, facts);
    if (reason === null) return null;
    reasons.push(reason);
  }
  return [...new Set(reasons)].join('; or ');
}
