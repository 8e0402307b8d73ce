import { createApp, Resource, ResourceTemplate, Tool, UseGuards, type CallTarget, type Guard, type McpApp, type RequestContext } from '@mcpkit/core';
import { IsNumber, IsString } from 'class-validator';

export class ChargeInput {
  @IsString()
  tenant: string;

  @IsNumber()
  cents: number;
}

/** Billing's own rule: only callers with the billing scope charge. */
class BillingScope implements Guard {
  canActivate(ctx: RequestContext, target: CallTarget): boolean {
    // A guard sees the name the serving app offers: billing_charge once mounted.
    return target.operation === 'list' || ctx.auth?.scopes.includes('billing') === true;
  }
}

@UseGuards(BillingScope)
export class BillingTools {
  @Tool({ description: 'Charges the tenant.' })
  charge(input: ChargeInput): string {
    return `charged ${input.tenant} ${input.cents} cents`;
  }

  @Tool({ description: 'Dumps the ledger.', tags: ['internal'] })
  dump(): string {
    return 'ledger';
  }

  @Resource({ uri: 'invoices://latest', mimeType: 'text/plain' })
  latest(input: { uri: string }): string {
    return `the latest invoice (${input.uri})`; // invoices://latest, whatever the gateway calls it
  }

  @ResourceTemplate({ uriTemplate: 'invoices://{id}', mimeType: 'text/plain' })
  invoice(variables: { id: string }): string {
    return `invoice ${variables.id}`;
  }
}

/** A team's app, complete on its own (it could be served by itself). */
export function createBilling(): McpApp {
  return createApp({ name: 'billing', version: '1.0.0', providers: [BillingTools] });
}

/** One endpoint for several apps: billing's tools as billing_*, its resources as billing+invoices://… */
export const gateway = createApp({
  name: 'gateway',
  version: '1.0.0',
  providers: [],
  imports: [{ app: createBilling(), prefix: 'billing' }],
  transforms: [
    // The model sees `charge(cents)`; the tenant is the caller's, from its token.
    { tool: 'billing_charge', name: 'charge', hide: { tenant: { from: (ctx) => ctx.auth?.claims?.tenant } } },
    { drop: { tags: ['internal'] } },
    // For clients that only call tools: list_resources and read_resource.
    { resourcesAsTools: true },
  ],
});
