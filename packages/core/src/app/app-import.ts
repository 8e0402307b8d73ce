import type { Implementation } from '../protocol/mcp-types';

/**
 * What `imports` accepts as an app: one `createApp` made (`McpApp`); anything else is
 * `MCPKIT_ERR_INVALID_MOUNT` at start-up.
 *
 * @example
 * const billing: ImportableApp = createApp({ name: 'billing', version: '1.0.0', providers: [BillingTools] });
 */
export interface ImportableApp {
  readonly info: Readonly<Implementation>;
  view(version: string): unknown;
}

/**
 * An app mounted into another (`createApp({ imports: [{ app, prefix }] })`): its tools and prompts
 * are offered as `<prefix>_<name>`, its resources as `<prefix>+<uri>` (the prefix joins the URI's
 * scheme: `notes://a` becomes `billing+notes://a`, templates alike), and its guards, interceptors,
 * filters, `requireAuth` and rate limit apply inside the importing app's (docs/compose.md).
 *
 * @example
 * const billing = createApp({ name: 'billing', version: '1.0.0', providers: [BillingTools] });
 * const app = createApp({ name: 'gateway', version: '1.0.0', providers: [], imports: [{ app: billing, prefix: 'billing' }] });
 */
export interface AppImport {
  /** The app to mount, made by `createApp`. It keeps working on its own too. */
  readonly app: ImportableApp;
  /**
   * Its namespace: a lowercase letter, then up to 31 lowercase letters, digits and `-`, so that it
   * is valid both in a tool name (before `_`) and in a URI scheme (before `+`).
   */
  readonly prefix: string;
}
