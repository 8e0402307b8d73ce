import { CliError } from './cli-error';
import { parseEnvPairs, serverInputArgs, splitServerArgs } from './server-input';

describe('server input', () => {
  it('splits the server arguments off at the first -- of start, dev, config and install only', () => {
    expect(splitServerArgs(['node', 'cli', 'start', 'app.js', '--http', '--', 'a', '--', '--env'])).toEqual({
      argv: ['node', 'cli', 'start', 'app.js', '--http'],
      serverArgs: ['a', '--', '--env'],
    });
    expect(splitServerArgs(['node', 'cli', 'install', '--', 'x']).serverArgs).toEqual(['x']);
    expect(splitServerArgs(['node', 'cli', 'start', 'app.js'])).toEqual({ argv: ['node', 'cli', 'start', 'app.js'], serverArgs: [] });
    expect(splitServerArgs(['node', 'cli', 'call', 'add', '--', 'x'])).toEqual({ argv: ['node', 'cli', 'call', 'add', '--', 'x'], serverArgs: [] });
  });

  it('reads NAME=value pairs (the value may hold =, or be empty) and refuses anything else', () => {
    expect(parseEnvPairs(['A=1', 'B=x=y', 'C=', 'A=2'])).toEqual({ A: '2', B: 'x=y', C: '' });
    for (const bad of ['A', '=1', '1A=x', 'A B=1', '__proto__=x']) expect(() => parseEnvPairs([bad])).toThrow(CliError);
  });

  it('gives them back as a command line of mcpkit start, the arguments last', () => {
    expect(serverInputArgs({ env: { A: '1 2' }, args: ['--x'] })).toEqual(['--env', 'A=1 2', '--', '--x']);
    expect(serverInputArgs({ env: {}, args: [] })).toEqual([]);
  });
});
