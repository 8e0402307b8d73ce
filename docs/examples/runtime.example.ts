import { createApp, Tool } from '@mcpkit/core';

export class CoreTools {
  @Tool({ description: 'Always there' })
  status(): string {
    return 'ok';
  }

  // Cancelled (ctx.signal aborts) and answered with an error after 5 s.
  @Tool({ description: 'Might hang on a slow upstream', timeoutMs: 5_000 })
  async fetchReport(): Promise<string> {
    return 'report';
  }
}

export class BetaTools {
  @Tool({ description: 'Only while the beta flag is on' })
  beta(): string {
    return 'beta feature';
  }
}

export const app = createApp({
  name: 'flags',
  version: '1.0.0',
  providers: [CoreTools],
  dynamic: true, // tools/resources/prompts declared with listChanged, changes allowed
  pageSize: 50, // tools/list and friends answer 50 at a time, with opaque cursors
  toolTimeoutMs: 30_000, // the limit for tools without their own timeoutMs
});

/** Flip a feature flag: every connected session gets notifications/tools/list_changed. */
export function setBeta(on: boolean): void {
  if (!on) {
    app.disable('tool', 'beta');
    return;
  }
  // enable() is false when the tool is unknown (first time: add it) or already on.
  if (!app.enable('tool', 'beta') && !app.map.tools.has('beta')) app.addProviders([BetaTools]);
}
