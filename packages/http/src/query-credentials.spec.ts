import { censorQueryCredentials, namesAccessToken } from './query-credentials';

describe('namesAccessToken', () => {
  it.each([
    'access_token',
    'ACCESS_TOKEN',
    'Access_Token',
    'access_token[]',
    'access_token[0]',
    'access%5Ftoken',
    '%61ccess_token',
    'access%255Ftoken',
    ' access_token',
  ])('finds %s', (name) => expect(namesAccessToken({ other: '1', [name]: 'x' })).toBe(true));

  it.each(['access_tokens', 'token', 'accesstoken', 'access-token', '%E0%A4%A'])('leaves %s alone', (name) =>
    expect(namesAccessToken({ [name]: 'x' })).toBe(false),
  );
});

describe('censorQueryCredentials', () => {
  it('censors every spelling of a credential parameter and keeps the rest as it was', () => {
    expect(censorQueryCredentials('/mcp?ACCESS_TOKEN=abc&x=1&access_token%5B%5D=def&Token=ghi#frag')).toBe(
      '/mcp?ACCESS_TOKEN=[Redacted]&x=1&access_token%5B%5D=[Redacted]&Token=[Redacted]#frag',
    );
    expect(censorQueryCredentials('/mcp?refresh%5Ftoken=a&client_secret[]=b&tokens=c')).toBe(
      '/mcp?refresh%5Ftoken=[Redacted]&client_secret[]=[Redacted]&tokens=c',
    );
  });

  it('returns a URL without credentials unchanged', () => {
    for (const url of ['/mcp', '/mcp?', '/mcp?a=1&b', '/mcp#access_token=x']) expect(censorQueryCredentials(url)).toBe(url);
  });
});
