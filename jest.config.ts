/**
 * ts-node loads this file without type-checking it (pnpm typecheck does):
 * @jest-config-loader-options {"transpileOnly": true}
 */
import type { Config } from 'jest';

// Servers under test log at warn unless a test asks for more, so the output stays readable.
process.env.LOG_LEVEL ??= 'warn';

/**
 * Suites that scaffold or pack a project and install it from a registry (minutes each), and the
 * `.mcpb` bundle launched as a desktop client does (its native addon is built for the Node that
 * packed it, so it runs on that Node only): `pnpm test:slow` (and .ci/run), not `pnpm test`.
 */
const SLOW = [
  '<rootDir>/packages/cli/test/new.e2e.spec.ts',
  '<rootDir>/packages/cli/test/registry.slow.spec.ts',
  '<rootDir>/packages/cli/test/pack-mcpb.slow.spec.ts',
];

/**
 * Suites that read the repository's sources or built declarations with the TypeScript compiler
 * (API reports, import graph, era boundaries, the generated client's types), or what npm packs of
 * each package (its packlist, twelve `npm pack --dry-run`): their answer does not
 * depend on the Node that runs them, so the second run of the suite on another Node
 * (`MCPKIT_JEST_RUNTIME_ONLY=1`, .ci/run's Node 24 stage) leaves them out.
 */
const SOURCE_ANALYSIS = [
  '<rootDir>/packages/core/test/api-reports.int.spec.ts',
  '<rootDir>/packages/core/test/import-cycles.int.spec.ts',
  '<rootDir>/packages/core/test/era-boundary.int.spec.ts',
  '<rootDir>/packages/core/test/named-era-imports.int.spec.ts',
  '<rootDir>/packages/http/test/status-table.int.spec.ts',
  '<rootDir>/apps/notes/test/notes.client-types.spec.ts',
  '<rootDir>/packages/core/test/package-files.int.spec.ts',
];
const runtimeOnly = process.env.MCPKIT_JEST_RUNTIME_ONLY === '1';

const project: Config = {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/apps', '<rootDir>/docs'],
  setupFiles: ['reflect-metadata'],
  transform: {
    // jose is ESM-only JavaScript: compiled file by file (auth.md §5) by a transformer module of its
    // own (jest shares one instance per module); the first matching pattern wins.
    '/node_modules/jose/.+\\.js$': '<rootDir>/scripts/jest/esm-deps-transformer.js',
    // Transpile only (tsconfig.jest.json sets isolatedModules): a spec starts in seconds; the type
    // check of sources and specs is `pnpm typecheck`, once.
    '^.+\\.[tj]s$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json' }],
  },
  // ESM-only dependencies must be down-compiled: jest on node < 24.9 cannot require(esm).
  transformIgnorePatterns: ['/node_modules/\\.pnpm/(?!cookie@|jose@)'],
  // Tests run against sources, so a unit test needs no build.
  moduleNameMapper: { '^@mcpkit/([a-z-]+)$': '<rootDir>/packages/$1/src', '^@mcpkit/([a-z-]+)/([a-z-]+)$': '<rootDir>/packages/$1/src/$2' },
  modulePathIgnorePatterns: ['<rootDir>/.*/dist/'],
};

const config: Config = {
  testTimeout: 30000,
  // `pnpm test` selects `default`, `pnpm test:slow` selects `slow`; `npx jest <path>` runs a spec
  // from either.
  projects: [
    {
      ...project,
      displayName: 'default',
      testMatch: ['**/*.spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...SLOW, ...(runtimeOnly ? SOURCE_ANALYSIS : [])],
    },
    { ...project, displayName: 'slow', testMatch: SLOW },
  ],
};

export default config;
