import { isAtLeast } from '../../protocol/protocol-versions';

// The first handshake-era revision with each optional behaviour. Revision dates compare as strings.
const SINCE = {
  /** `notifications/progress` may carry `message`. */
  progressMessage: '2025-03-26',
  /** JSON-RPC batches: only this revision has them. */
  batches: '2025-03-26',
  /** `elicitation/create` and the client's `elicitation` capability. */
  elicitation: '2025-06-18',
  /** Form elicitations carry `mode: "form"` (URL elicitation arrived beside them). */
  elicitationMode: '2025-11-25',
  /** Task-augmented requests and the tasks/* methods (experimental core). */
  tasks: '2025-11-25',
} as const;

/** The one revision that accepts JSON-RPC batches (later ones removed them). */
export const BATCH_REVISION = SINCE.batches;

/** Whether `version` (a handshake-era revision) has `feature`. */
export function hasFeature(version: string, feature: keyof typeof SINCE): boolean {
  return isAtLeast(version, SINCE[feature]);
}

/** The first revision that has `feature`, for messages that name it. */
export function featureSince(feature: keyof typeof SINCE): string {
  return SINCE[feature];
}
