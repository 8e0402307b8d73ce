// The testbed over stdio without the start-up opt-in: its main module imports `@mcpkit/core`
// (through the app) and `@mcpkit/stdio` alone, not `@mcpkit/core/compile-cache` first. What an
// app whose main does not opt in starts like (the cold-start row "without the opt-in").
import { createTestbedApp } from '@mcpkit/app-testbed/dist/app';
import { serveStdio } from '@mcpkit/stdio';

serveStdio(createTestbedApp());
