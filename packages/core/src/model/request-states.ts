/** What a retry brings: the answers so far, and the exchange its state belongs to (none without a state). */
export interface RetryAnswers {
  answers: Record<string, unknown>;
  exchange: string | undefined;
}

/**
 * The signed `requestState` of input-required rounds (MRTR): the modern codec reads and signs
 * it, the dispatcher claims and frees a round's exchange. The app holds one.
 */
export interface RequestStates {
  /** The answers a retry brings (its verified `requestState` and its `inputResponses`); throws `-32602` for a bad one. */
  answersOf(params: Record<string, unknown>, method: string, target: string, principal?: string): RetryAnswers;
  /** Takes `exchange` for the round about to run: `-32602` when it completed or a round of it runs now. */
  claim(exchange: string): Promise<void>;
  /** Frees the exchange after a round that asked again or failed, so the exchange goes on. */
  release(exchange: string): Promise<void>;
  /** A state for the next round of `exchange` (a new exchange when undefined: the first round asked). */
  sign(method: string, target: string, args: unknown, answers: Record<string, unknown>, principal?: string, exchange?: string): string;
}
