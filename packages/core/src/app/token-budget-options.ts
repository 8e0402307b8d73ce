/**
 * `createApp({ tokenBudget })`: what `tools/list` and the instructions may cost a conversation,
 * checked once at start-up.
 */
export interface TokenBudgetOptions {
  /** Most tokens the `tools/list` result (all tools, as JSON) and the instructions may cost together. */
  limit: number;
  /** Refuse to start (`MCPKIT_ERR_TOKEN_BUDGET`) instead of logging a warning. Default false. */
  strict?: boolean;
  /**
   * Counts the tokens of a text, e.g. with a BPE tokenizer (`mcpkit lint` uses gpt-tokenizer).
   * Default: an estimate, one token per 4 characters of JSON (within about ±12 % of o200k_base on
   * this repository's apps), so core loads no tokenizer.
   */
  count?: (text: string) => number;
}
