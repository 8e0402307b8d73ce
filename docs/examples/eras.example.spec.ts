import { createApp, Field, Resource, Tool, type RequestContext } from '@mcpkit/core';
import { firstText, TestClient } from '@mcpkit/testing';
import { IsBoolean, IsString } from 'class-validator';

class RefundInput {
  @IsString()
  order: string;
}

class Approval {
  @Field({ description: 'Refund this order?' })
  @IsBoolean()
  approve: boolean;
}

class Shop {
  // One handler for both eras. Ask first, act after: on 2026-07-28 the handler runs again from
  // the top once the client has answered, so nothing before the question may have side effects.
  @Tool({ description: 'Refunds an order once the user approves' })
  async refund(input: RefundInput, ctx: RequestContext): Promise<string> {
    const answer = await ctx.elicit(`Refund order ${input.order}?`, Approval, { key: 'approval' });
    if (answer.action !== 'accept' || !answer.content.approve) return 'Kept the order.';
    return `Refunded ${input.order}.`;
  }

  // The same for every caller, and slow to change: clients may keep it for an hour.
  @Resource({ uri: 'shop://policy', cache: { ttlMs: 3_600_000, scope: 'public' } })
  policy(): string {
    return 'Refunds within 30 days.';
  }
}

export const shopApp = createApp({ name: 'shop', version: '1.0.0', providers: [Shop], cache: { lists: { ttlMs: 60_000 } } });

describe.each(['legacy', 'modern'] as const)('the shop on the %s era', (era) => {
  it('asks before refunding, with the same handler', async () => {
    const client = await TestClient.connect(shopApp, { era, handlers: { 'elicitation/create': () => ({ action: 'accept', content: { approve: true } }) } });
    expect(firstText(await client.callTool('refund', { order: 'A-17' }))).toBe('Refunded A-17.');
    // legacy: an elicitation/create request; modern: one input-required round and a retry
    expect(client.messages.filter((message) => message.method === 'elicitation/create')).toHaveLength(1);
    expect(client.rounds).toBe(era === 'modern' ? 1 : 0);
  });

  it('tells 2026-07-28 clients how long they may cache', async () => {
    const client = await TestClient.connect(shopApp, { era });
    const policy = await client.readResource('shop://policy');
    if (era === 'modern') expect(policy).toMatchObject({ ttlMs: 3_600_000, cacheScope: 'public' });
    else expect(policy).not.toHaveProperty('ttlMs');
  });
});
