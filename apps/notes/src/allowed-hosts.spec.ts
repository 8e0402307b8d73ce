import { allowedHostsFromEnv, notesAllowedHosts } from './allowed-hosts';

describe('NOTES_ALLOWED_HOSTS', () => {
  it('reads a comma-separated list, trimmed; unset or empty is undefined', () => {
    expect(allowedHostsFromEnv({})).toBeUndefined();
    expect(allowedHostsFromEnv({ NOTES_ALLOWED_HOSTS: ' , ' })).toBeUndefined();
    expect(allowedHostsFromEnv({ NOTES_ALLOWED_HOSTS: 'notes.example.com, mcp.internal:8443,[::2]:80,*' })).toEqual([
      'notes.example.com',
      'mcp.internal:8443',
      '[::2]:80',
      '*',
    ]);
  });

  it.each(['https://notes.example.com', 'notes.example.com/mcp', 'a b', 'host:port'])('refuses %j', (entry) =>
    expect(() => allowedHostsFromEnv({ NOTES_ALLOWED_HOSTS: entry })).toThrow(/is not a host name/),
  );

  it('adds them to loopback and the resource host, once each', () => {
    expect(notesAllowedHosts(['localhost', '127.0.0.1'], ['127.0.0.1', 'notes.example.com'], undefined, ['notes.example.com', 'x'])).toEqual([
      'localhost',
      '127.0.0.1',
      'notes.example.com',
      'x',
    ]);
  });
});
