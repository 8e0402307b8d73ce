import type { TokenBudgetOptions } from '../app/token-budget-options';
import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import type { Logger } from '../logging/logger';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../protocol/protocol-versions';
import type { McpApp } from './mcp-app';

/** Characters of JSON per token, for the estimate: o200k_base and cl100k_base average 4.0–4.4 on tool lists. */
const CHARACTERS_PER_TOKEN = 4;

function estimate(text: string): number {
  return Math.ceil(text.length / CHARACTERS_PER_TOKEN);
}

/** The budget as options (createApp checked it against `APP_OPTIONS`). */
function optionsOf(given: number | TokenBudgetOptions): TokenBudgetOptions {
  return typeof given === 'number' ? { limit: given } : given;
}

/**
 * Checks what the app's `tools/list` (the newest revision's, every page as one) and instructions
 * cost against `createApp({ tokenBudget })`, once, at start-up: over it, a warning (or, `strict`,
 * a DefinitionError). Nothing is counted for an app without a budget.
 */
export function checkTokenBudget(app: McpApp, given: number | TokenBudgetOptions, logger: Logger): void {
  const options = optionsOf(given);
  const tools = app.view(SUPPORTED_PROTOCOL_VERSIONS[0]).tools.flatMap((page) => page.tools);
  const count = options.count ?? estimate;
  const tokens = count(JSON.stringify({ tools })) + (app.instructions === undefined ? 0 : count(app.instructions));
  if (tokens <= options.limit) return;
  const how = options.count ? 'tokens' : 'tokens (estimated: 4 characters a token)';
  const problem = `tools/list and the instructions cost ${tokens} ${how}, over tokenBudget ${options.limit}.`;
  const fixes = ['Shorten descriptions and schemas or remove tools: `mcpkit lint` counts each tool exactly.', `Or raise tokenBudget above ${tokens}.`];
  if (options.strict) throw new DefinitionError(DefinitionErrorCode.TOKEN_BUDGET, problem, fixes);
  logger.warn({ tokens, tokenBudget: options.limit, estimated: !options.count, tools: tools.length }, `${problem} ${fixes[0]}`);
}
