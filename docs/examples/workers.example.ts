import { createFetchHandler } from '@mcpkit/http';
import type { PrecompiledValidators } from '@mcpkit/core';
import { createInvitesApp } from './precompiled-validators.example';

// src/worker.ts, compiled by tsc with the app (src/app.ts). The Worker's entry is worker.mjs,
// an ES module (tsc's CommonJS output has no `export default`, so a Worker built from it has no
// fetch handler). Built once per isolate, at import: it starts no timer.
export function worker(validators: PrecompiledValidators) {
  const mcp = createFetchHandler(createInvitesApp(validators), { path: '/mcp' });
  return { fetch: (request: Request) => mcp(request) };
}

export { createInvitesApp };
