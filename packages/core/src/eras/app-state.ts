import type { RequestStateStore } from '../app/request-state-store';
import type { CapabilityMap } from '../scanner/definitions';
import type { Implementation } from '../protocol/mcp-types';
import type { RequestStates } from '../model/request-states';
import type { RevisionView } from '../model/revision-view';
import { revisionViews, viewFor } from './handshake/revision-views';
import { hasField, TOOL_FIELDS } from './handshake/revision-shape';
import { RequestStateCodec, type InputLimits } from './modern/input-required';
import { serverInfoMeta } from './modern/results';

/**
 * What the eras compute once per app (at start-up, and again when a dynamic app changes), so
 * that the server asks the eras here and never a named one: the list results of each revision,
 * the server info the modern results carry, the signer of input-required rounds.
 */
export const ERA_APP_STATE = Object.freeze({
  /** The list results and server info of every revision that has its own, computed once per app state. */
  views(map: CapabilityMap, info: Implementation, pageSize: number | undefined): ReadonlyMap<string, RevisionView> {
    return revisionViews(map, info, pageSize);
  },

  /** The view of `version` among `views`; a revision without its own has every field of the latest. */
  viewFor(views: ReadonlyMap<string, RevisionView>, version: string): RevisionView {
    return viewFor(views, version);
  },

  /** Whether the tools of `version` carry `_meta`, where MCP Apps links a tool to its view (`_meta.ui`). */
  toolsCarryMeta(version: string): boolean {
    return hasField(version, TOOL_FIELDS, '_meta');
  },

  /** The `_meta` with the server info that results carry where the revision has them there. */
  infoMeta(info: Implementation): Readonly<Record<string, unknown>> {
    return serverInfoMeta(info);
  },

  /** The signer and checker of `requestState` (input-required rounds), with the app's limits. */
  requestStates(secret: string | undefined, limits: InputLimits, store: RequestStateStore): RequestStates {
    return new RequestStateCodec(secret, limits, store);
  },
});
