/**
 * The layers of src/, checked by `npm run lint` (docs/architecture.md describes them).
 *
 *   core  <-  store  <-  snapshot  <-  readers (http, mcp, websub, pages)  <-  cli
 *
 * An import may only point down (to the left). Beside the layers, at the bottom, sit the
 * foundation files config.ts, limits.ts, version.ts and logger.ts, which import nothing from
 * the project, and metrics/, which the readers use and which imports only the foundation.
 * Of the readers, only http knows fastify and the service context: mcp, websub and pages
 * export plain handlers and renderers that http wires up.
 */
const FOUNDATION = '^src/(config|limits|version|logger)\\.ts$';
const READERS = '^src/(http|mcp|websub|pages)/';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles anywhere in src/: each module can be read knowing only what it imports.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'core-is-pure',
      severity: 'error',
      comment: 'src/core imports only src/core: no store, no readers, no configuration.',
      from: { path: '^src/core/' },
      to: { path: '^src/', pathNot: '^src/core/' },
    },
    {
      name: 'core-has-no-io',
      severity: 'error',
      comment: 'src/core does no I/O: of Node, only crypto (hashing); no database, HTTP or logging package.',
      from: { path: '^src/core/' },
      to: {
        dependencyTypes: ['core'],
        pathNot: '^(node:)?crypto$',
      },
    },
    {
      name: 'core-has-no-io-packages',
      severity: 'error',
      comment: 'src/core does no I/O: no database, HTTP, logging or metrics package.',
      from: { path: '^src/core/' },
      to: { path: 'node_modules/(fastify|@fastify|better-sqlite3|pg|undici|pino|prom-client|@modelcontextprotocol)/' },
    },
    {
      name: 'foundation-imports-nothing',
      severity: 'error',
      comment: 'config, limits, version and logger sit under every layer: they import nothing from the project.',
      from: { path: FOUNDATION },
      to: { path: '^src/' },
    },
    {
      name: 'metrics-imports-foundation-only',
      severity: 'error',
      from: { path: '^src/metrics/' },
      to: { path: '^src/', pathNot: ['^src/metrics/', FOUNDATION] },
    },
    {
      name: 'store-points-down',
      severity: 'error',
      comment: 'The store knows the core and the configuration, nothing above it.',
      from: { path: '^src/store/' },
      to: { path: '^src/(snapshot|http|mcp|websub|pages|cli|metrics)/' },
    },
    {
      name: 'snapshot-points-down',
      severity: 'error',
      comment: 'The snapshot is built from the store; no reader and no CLI.',
      from: { path: '^src/snapshot/' },
      to: { path: '^src/(http|mcp|websub|pages|cli)/' },
    },
    {
      name: 'readers-below-cli',
      severity: 'error',
      from: { path: READERS },
      to: { path: '^src/cli/' },
    },
    {
      name: 'only-http-knows-http',
      severity: 'error',
      comment: 'mcp, websub and pages export plain handlers; src/http wires them to routes and owns the service context.',
      from: { path: '^src/(mcp|websub|pages)/' },
      to: { path: '^src/http/' },
    },
    {
      name: 'only-http-imports-fastify',
      severity: 'error',
      comment: 'fastify and its plugins are an implementation detail of src/http.',
      from: { path: '^src/', pathNot: '^src/http/' },
      to: { path: 'node_modules/(fastify|@fastify)/' },
    },
    {
      name: 'cli-uses-http-server-only',
      severity: 'error',
      comment: 'The CLI starts the service through http/server.ts and knows nothing else of http.',
      from: { path: '^src/cli/' },
      to: { path: '^src/http/', pathNot: '^src/http/server\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports are dependencies too: a layer must not know the types of the layers above it.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
