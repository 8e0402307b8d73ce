import { createApp, Tool } from '@mcpkit/core';
import type { SessionSnapshot } from '@mcpkit/core/transport';
import { serveStdio } from '@mcpkit/stdio';

class Hello {
  @Tool({ description: 'Says hello' })
  hello(): string {
    return 'hello';
  }
}

// The process this one replaces handed over its client's session (here, in an environment variable).
const restore = process.env.MCP_SESSION === undefined ? undefined : (JSON.parse(process.env.MCP_SESSION) as SessionSnapshot);

serveStdio(createApp({ name: 'hello', version: '2.0.0', providers: [Hello] }), {
  restore, // past the handshake, same log level, subscriptions and listens
  announceListChanges: true, // initialize declares listChanged; a restored client hears list_changed
  // Each change to the session, for whoever starts the next process (here, a parent over IPC).
  onSnapshot: (snapshot) => process.send?.({ snapshot }),
});
