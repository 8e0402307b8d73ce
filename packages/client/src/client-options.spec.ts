import { ruleEntries, wrongValue } from '@mcpkit/core/transport';
import { McpClient } from './client';
import { CLIENT_OPTIONS, type ClientOptions } from './client-options';

// A target that would fail if it were ever used: options are read before anything connects.
const never = () => {
  throw new Error('the transport was opened');
};

describe('McpClient.connect options (CLIENT_OPTIONS)', () => {
  it.each(ruleEntries(CLIENT_OPTIONS))('refuses a wrong %s with a TypeError naming it, before connecting', async (name, rule) => {
    const connecting = McpClient.connect(never, { [name]: wrongValue(rule) } as ClientOptions);
    await expect(connecting).rejects.toThrow(new RegExp(`^McpClient.connect: option "${name}" must be .+ \\(got .+\\)\\. Give `));
    await expect(McpClient.connect(never, { [name]: wrongValue(rule) } as ClientOptions)).rejects.toThrow(TypeError);
  });

  it('refuses an unknown option, suggesting a close one', async () => {
    await expect(McpClient.connect(never, { timeoutMS: 10 } as ClientOptions)).rejects.toThrow(
      'McpClient.connect: option "timeoutMS" is unknown; did you mean "timeoutMs"?',
    );
  });

  it('documents its defaults', () => {
    expect(CLIENT_OPTIONS.timeoutMs.default).toBe(60_000);
    expect(CLIENT_OPTIONS.era.default).toBe('auto');
    expect(CLIENT_OPTIONS.maxMessageBytes.default).toBe(64 * 1024 * 1024);
    expect(CLIENT_OPTIONS.maxPendingRequests.default).toBe(1_000);
  });
});
