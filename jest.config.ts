import type { Config } from 'jest';

// Servers under test log at warn unless a test asks for more, so the output stays readable.
process.env.LOG_LEVEL ??= 'warn';

const config: Config = {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/apps', '<rootDir>/docs'],
  testMatch: ['**/*.spec.ts'],
  setupFiles: ['reflect-metadata'],
  transform: {
    // jose is ESM-only JavaScript: compiled file by file (auth.md §5) by a transformer module of its
    // own (jest shares one instance per module); the first matching pattern wins.
    '/node_modules/jose/.+\\.js$': '<rootDir>/scripts/jest/esm-deps-transformer.js',
    '^.+\\.[tj]s$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json' }],
  },
  // ESM-only dependencies must be down-compiled: jest on node < 24.9 cannot require(esm).
  transformIgnorePatterns: ['/node_modules/\\.pnpm/(?!cookie@|jose@)'],
  // Tests run against sources, so a unit test needs no build.
  moduleNameMapper: { '^@mcpkit/([a-z-]+)$': '<rootDir>/packages/$1/src', '^@mcpkit/([a-z-]+)/([a-z-]+)$': '<rootDir>/packages/$1/src/$2' },
  modulePathIgnorePatterns: ['<rootDir>/.*/dist/'],
  testTimeout: 30000,
};

export default config;
