import type { ClientCapabilities, Implementation } from '../protocol/mcp-types';

/** What the client told us about itself: in `initialize` (legacy era) or in each request's `_meta`. */
export interface ClientInfo {
  /** The protocol revision in force for this request. */
  protocolVersion: string;
  capabilities: ClientCapabilities;
  info?: Implementation;
}
