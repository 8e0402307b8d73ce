import { createFetchHandler } from '@mcpkit/http';
import type { PrecompiledValidators } from '@mcpkit/core';
import { createInvitesApp } from './precompiled-validators.example';

// src/worker.ts holds `import validators from './validators.generated.js'` and
// `export default worker(validators)`: built once per isolate, at import, so it starts no timer.
export function worker(validators: PrecompiledValidators) {
  const mcp = createFetchHandler(createInvitesApp(validators), { path: '/mcp' });
  return { fetch: (request: Request) => mcp(request) };
}

export { createInvitesApp };
