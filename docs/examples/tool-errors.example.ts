import { createApp, Tool, ToolError, UseFilters, type ExceptionFilter } from '@mcpkit/core';
import { IsString } from 'class-validator';

class LookupInput {
  @IsString()
  sku: string;
}

/** What the stock service throws: its message names hosts and queries, not for the model. */
export class StockServiceError extends Error {
  constructor(
    readonly status: number,
    detail: string,
  ) {
    super(`stock service: ${detail}`);
  }
}

/** Says what the model may know of a stock outage, and passes anything else on. */
class StockOutageAsText implements ExceptionFilter {
  constructor(private readonly retryIn: string) {}

  catch(error: unknown): unknown {
    if (error instanceof StockServiceError && error.status >= 500) throw new ToolError(`Stock is unavailable; try again in ${this.retryIn}.`);
    throw error;
  }
}

export class Stock {
  @Tool({ description: 'Looks up the stock of an item' })
  @UseFilters(new StockOutageAsText('a minute'))
  stock(input: LookupInput): string {
    throw new StockServiceError(503, `GET http://10.0.0.7/stock?sku=${input.sku} timed out`);
  }

  @Tool({ description: 'Reserves an item' })
  reserve(input: LookupInput): string {
    throw new StockServiceError(500, `UPDATE stock SET held = held + 1 WHERE sku = '${input.sku}'`);
  }
}

// Without `filters`, reserve's failure would read "Tool reserve failed with an internal error; …".
export const stockApp = createApp({ name: 'stock', version: '1.0.0', providers: [Stock], filters: [new StockOutageAsText('five minutes')] });
