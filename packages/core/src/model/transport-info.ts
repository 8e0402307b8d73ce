import type { AuthInfo } from '../auth/auth-info';

/** Facts about the transport a request arrived on. */
export interface TransportInfo {
  /**
   * Which transport: mcpkit's own are `stdio`, `http` and `memory` (the TestClient); a transport
   * of your own names itself (`websocket`, …), and the name shows in its request lines.
   */
  kind: 'stdio' | 'http' | 'memory' | (string & {});
  /** HTTP request headers (lower-case names), when the transport has them. */
  headers?: Readonly<Record<string, string | string[] | undefined>>;
  /** Who is calling, as the transport established it (a verified token, `serveStdio({ auth })`, a test). */
  auth?: AuthInfo;
  /** The client's network address, when the transport knows it (rate limits of anonymous callers). */
  remoteAddress?: string;
  /** The client's port, when the transport knows it and `remoteAddress` is the connection's own peer. */
  remotePort?: number;
  /** The HTTP version the request came over (`1.1`, `2`), when the transport knows it. */
  httpVersion?: string;
}
