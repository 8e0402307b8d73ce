// The Worker: the app on the fetch binding, with validators compiled ahead of time (workerd
// forbids `new Function`). Built at import, in global scope: nothing here may start a timer.
import { createFetchHandler } from '@mcpkit/http';
import validators from './validators.generated.js';
import { createWorkerApp } from './app.js';

const mcp = createFetchHandler(createWorkerApp(validators), { path: '/mcp' });

export default {
  fetch(request) {
    return mcp(request);
  },
};
