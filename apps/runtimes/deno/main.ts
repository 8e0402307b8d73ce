// The fetch binding on Deno.serve, as a Deno user writes it: `npm:` specifiers, which Deno resolves
// to this app's node_modules (it reads the package.json beside it), and the decorated classes from
// tsc's output (dist/, CommonJS: package.json says "type": "commonjs").
import { createFetchHandler } from 'npm:@mcpkit/http';
import { createRuntimeApp } from '../dist/app.js';

const mcp = createFetchHandler(createRuntimeApp(), { path: '/mcp' });
Deno.serve(
  { hostname: '127.0.0.1', port: Number(Deno.env.get('PORT') ?? 0), onListen: ({ port }) => console.error(`listening http://127.0.0.1:${port}/mcp`) },
  mcp,
);
