// The fixture's TypeScript source run by Deno itself (no tsc): its decorators compile as
// deno.json's compilerOptions say, when Deno finds that file.
import { serveStdio } from 'npm:@mcpkit/stdio';
import { createRuntimeApp } from '../src/app.ts';

serveStdio(createRuntimeApp());
