// The layers of the app and of the emulator, as docs/architecture.md draws them. `npm run
// lint:deps` (called by .ci/run) fails on any violation. Rules name path patterns, not files, so
// a new feature folder under src/ or a new package is covered the day it appears.
//
// The parser is swc: dependency-cruiser's tsc parser needs the TypeScript JS API, which
// TypeScript 7 (our compiler) no longer ships. swc reports every import declaration, type-only
// ones included, which is what tsPreCompilationDeps asks for: a type-only cycle is still a cycle
// for the reader.

/**
 * The layers of src/, lowest first (docs/architecture.md draws the same table). A module may
 * import its own layer and the layers below it, never one above: `no-upward-import` is generated
 * from this list, one rule per layer. Folders on one row are peers (a feature may import another
 * feature only through its public module, see `features-through-public-module`).
 */
const layers = [
  { name: 'lib', paths: ['^src/lib/'] },
  { name: 'observability, access', paths: ['^src/observability/', '^src/access/'] },
  { name: 'config', paths: ['^src/config\\.ts$'] },
  { name: 'db', paths: ['^src/db/'] },
  { name: 'changeStreams', paths: ['^src/changeStreams/'] },
  { name: 'fanout', paths: ['^src/fanout/'] },
  { name: 'graphql toolkit', paths: ['^src/graphql/'] },
  { name: 'features', paths: ['^src/ledger/', '^src/work/'] },
  { name: 'features built on features', paths: ['^src/payouts/', '^src/audit/'] },
  { name: 'health', paths: ['^src/health/'] },
  { name: 'composition root', paths: ['^src/app/'] },
  { name: 'transports', paths: ['^src/server/'] },
  { name: 'process entry', paths: ['^src/main\\.ts$'] },
];
/** Feature folders: each owns its collections and shows the others one public module, its index.ts. */
const features = '(ledger|work|payouts|audit|health)';
/**
 * Where GraphQL may be spoken: the toolkit, each feature's graphql/ folder, the composition root
 * (the schema's resolver list), the transports, the process entry and the console. Everything
 * else under src/ (access, config, db, the change-stream and fan-out layers, every feature's
 * domain) is plain TypeScript.
 */
const graphqlLayer = [
  '^src/graphql/',
  '^src/[^/]+/graphql/',
  '^src/app/',
  '^src/server/',
  '^src/main\\.ts$',
  '^src/console/',
];
const graphqlPackages = '(^|/)node_modules/(graphql|graphql-jit|type-graphql|graphql-ws|@apollo/server)/';
const emulator = '^packages/mongo-emulator/src/';

module.exports = {
  forbidden: [
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that resolves to nothing is a broken build, or a rule that silently sees nothing.',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle, type-only imports included, means two modules cannot be read or changed apart.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-not-to-graphql',
      severity: 'error',
      comment:
        'Services return plain discriminated unions; only the graphql layer maps them to GraphQL types (docs/design.md).',
      from: { path: '^src/', pathNot: graphqlLayer },
      to: { path: graphqlPackages },
    },
    {
      name: 'domain-not-through-graphql',
      severity: 'error',
      comment:
        'Nor through another module: a domain module never reaches graphql or type-graphql by any chain of imports.',
      from: { path: '^src/', pathNot: graphqlLayer },
      to: { path: graphqlPackages, reachable: true },
    },
    ...layers.slice(0, -1).map((layer, index) => ({
      name: `no-upward-import-${layer.name.replace(/[^a-z]+/gi, '-')}`,
      severity: 'error',
      comment: `The ${layer.name} layer imports only its own layer and those below it (docs/architecture.md, the layer table).`,
      from: { path: layer.paths },
      to: { path: layers.slice(index + 1).flatMap((above) => above.paths) },
    })),
    {
      name: 'config-only-access',
      severity: 'error',
      comment:
        'config.ts parses the environment into roles, keys and limits: it may import src/access and nothing else of src/.',
      from: { path: '^src/config\\.ts$' },
      to: { path: '^src/', pathNot: '^src/access/' },
    },
    {
      name: 'toolkit-not-to-features',
      severity: 'error',
      comment:
        'The GraphQL toolkit (src/graphql) is what feature resolvers build on: it names no feature (nor, by the layer rules, ' +
        'any module that could lead to one).',
      from: { path: '^src/graphql/' },
      to: { path: `^src/${features}/` },
    },
    {
      name: 'features-through-public-module',
      severity: 'error',
      comment:
        'A feature reaches another feature only through its public module (index.ts), so its files can change without the others noticing.',
      from: { path: `^src/${features}/` },
      to: { path: `^src/${features}/`, pathNot: ['^src/$1/', `^src/${features}/index\\.ts$`] },
    },
    {
      name: 'production-not-to-tests',
      severity: 'error',
      comment: 'Test support is for tests; shipped code never loads it.',
      from: { path: ['^src/', '^packages/[^/]+/src/'] },
      to: { path: ['^test/', '^packages/[^/]+/test/'] },
    },
    {
      name: 'testing-only-from-tests',
      severity: 'error',
      comment:
        'src/testing builds production parts with one piece replaced (the mutants of the meta-tests); ' +
        'production constructors take no such piece, and only tests and benches may load this door.',
      from: { pathNot: ['^test/', '^bench/', '^src/testing/', '^packages/[^/]+/test/'] },
      to: { path: '^src/testing/' },
    },
    {
      name: 'workers-are-api-clients',
      severity: 'error',
      comment:
        'workers/ are API clients, run beside the API as any service would run them: they reach the API only ' +
        'through @precondition/sdk, never through src/ (its collections, services or config), nor through tests.',
      from: { path: '^workers/' },
      to: { path: ['^src/', '^test/', '^bench/'] },
    },
    {
      name: 'workers-through-the-sdk-package',
      severity: 'error',
      comment:
        'A worker imports the SDK by its package name (@precondition/sdk), as a user would, never a file of packages/ by a relative path.',
      from: { path: '^workers/' },
      to: { path: '^packages/', dependencyTypesNot: ['aliased-workspace'] },
    },
    {
      name: 'console-is-an-api-client',
      severity: 'error',
      comment:
        'The ops console is a browser page and an API client like any other: it speaks to the API only through ' +
        '@precondition/sdk by its package name (its generated operations, the trusted documents), never through ' +
        'the rest of src/, a file of packages/ by a relative path, or tests.',
      from: { path: '^src/console/' },
      to: { path: ['^src/(?!console/)', '^packages/', '^test/', '^bench/'], dependencyTypesNot: ['aliased-workspace'] },
    },
    {
      name: 'emulator-not-to-app',
      severity: 'error',
      comment: 'The emulator is a MongoDB server; it knows nothing of the app that talks to it.',
      from: { path: '^packages/mongo-emulator/', pathNot: '^packages/mongo-emulator/test/' },
      to: { path: '^src/' },
    },
    {
      name: 'emulator-commands-not-to-wire',
      severity: 'error',
      comment:
        'wire -> commands: the wire layer frames messages and dispatches them to commands, never the reverse. ' +
        'Only the server that opens sockets imports it; wire/constants.ts (a leaf table of protocol limits ' +
        'such as maxBsonObjectSize, which hello reports) may be read by every layer.',
      from: { path: emulator, pathNot: `${emulator}(wire/|server\\.ts$|index\\.ts$|cli\\.ts$)` },
      to: { path: `${emulator}wire/(?!constants\\.ts$)` },
    },
    {
      name: 'emulator-txn-changes-not-to-commands',
      severity: 'error',
      comment:
        'commands -> {txn, changes, cursors, session, failpoints}: what commands use never reaches back into them (nor into repl/, which commands drive).',
      from: { path: `${emulator}(txn|changes|engine|cursors|session|failpoints)/` },
      to: { path: `${emulator}(commands|repl)/` },
    },
    {
      name: 'emulator-repl-not-to-commands',
      severity: 'error',
      comment:
        'commands -> repl -> {txn, changes}: a replica-set member is driven by commands, never the reverse, and reaches other members with its own client, not the wire layer.',
      from: { path: `${emulator}repl/` },
      to: { path: `${emulator}(commands|wire)/` },
    },
    {
      name: 'emulator-layers-not-to-server-state',
      severity: 'error',
      comment:
        'serverState.ts wires every layer together (commands read it); a layer below commands names the ' +
        'shape it needs instead (txn/statementScope.ts StatementServer), so it never sees the whole server.',
      from: { path: `${emulator}(txn|changes|engine|cursors|session|failpoints)/` },
      to: { path: `${emulator}server(State)?\\.ts$` },
    },
    {
      name: 'emulator-engine-not-up',
      severity: 'error',
      comment: '{txn, changes} -> engine: the storage engine is the bottom layer.',
      from: { path: `${emulator}engine/` },
      to: {
        path: `${emulator}(wire|commands|txn|changes|cursors|session|failpoints|repl)/|${emulator}server(State)?\\.ts$`,
      },
    },
  ],
  options: {
    parser: 'swc',
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
      exportsFields: ['exports'],
      // precondition-source: @precondition/sdk's sources, as workers/ import it (tsconfig customConditions).
      conditionNames: ['precondition-source', 'import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
