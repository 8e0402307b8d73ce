// The control Worker: the same app without precompiled validators. workerd forbids `new Function`,
// so its first validated tools/call must fail: what shows that worker.mjs passes because of them.
import { createFetchHandler } from '@mcpkit/http';
import { createWorkerApp } from './app.js';

const mcp = createFetchHandler(createWorkerApp(), { path: '/mcp' });

export default {
  fetch(request) {
    return mcp(request);
  },
};
