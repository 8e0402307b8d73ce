import { createApp, Tool } from '@mcpkit/core';
import { firstText, TestClient } from '@mcpkit/testing';
import { IsString } from 'class-validator';

class EchoInput {
  @IsString()
  text: string;
}

class Echo {
  @Tool({ description: 'Echoes its input' })
  echo(input: EchoInput): string {
    return input.text;
  }
}

const app = createApp({ name: 'echo', version: '1.0.0', providers: [Echo] });

describe('echo', () => {
  it('echoes, and answers bad input with an isError result', async () => {
    const client = await TestClient.connect(app);
    expect(firstText(await client.callTool('echo', { text: 'hi' }))).toBe('hi');
    expect((await client.callTool('echo', { text: 42 })).isError).toBe(true);
  });
});
