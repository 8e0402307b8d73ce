import { serveStdio } from '@mcpkit/stdio';
import { createTestbedApp } from './app';

const mode = process.argv[2] ?? 'stdio';
if (mode === 'stdio') {
  serveStdio(createTestbedApp());
} else {
  process.stderr.write(`testbed: mode "${mode}" is not available yet (only "stdio")\n`);
  process.exit(2);
}
