import { gatewayConfigFromEnv } from './config';

describe('the gateway sources from the environment', () => {
  const main = '/srv/everything/dist/main.js';

  it('is the mounted notes and apps/everything on stdio alone by default', () => {
    expect(gatewayConfigFromEnv({}, main)).toEqual({ everything: { command: process.execPath, args: [main, 'stdio'] } });
  });

  it('adds the HTTP notes with its token, and the REST service with its document beside it unless told where', () => {
    const config = gatewayConfigFromEnv(
      { GATEWAY_NOTES_URL: 'http://127.0.0.1:3001/mcp', GATEWAY_NOTES_TOKEN: 't0ken', GATEWAY_REST_URL: 'http://127.0.0.1:8080/v1/' },
      main,
    );
    expect(config.remoteNotes).toEqual({ url: 'http://127.0.0.1:3001/mcp', token: 't0ken' });
    expect(config.rest).toEqual({ baseUrl: 'http://127.0.0.1:8080/v1/', document: 'http://127.0.0.1:8080/v1/openapi.json' });
    expect(gatewayConfigFromEnv({ GATEWAY_REST_URL: 'http://api', GATEWAY_REST_OPENAPI_URL: 'https://docs/api.json' }, main).rest).toEqual({
      baseUrl: 'http://api',
      document: 'https://docs/api.json',
    });
  });

  it('refuses a malformed URL, or a setting whose source is missing, naming the variable', () => {
    expect(() => gatewayConfigFromEnv({ GATEWAY_NOTES_URL: '127.0.0.1:3001' }, main)).toThrow(
      'GATEWAY_NOTES_URL must be an absolute http(s) URL, got "127.0.0.1:3001"',
    );
    expect(() => gatewayConfigFromEnv({ GATEWAY_REST_URL: 'file:///etc/api' }, main)).toThrow(/GATEWAY_REST_URL must be an absolute http\(s\) URL/);
    expect(() => gatewayConfigFromEnv({ GATEWAY_NOTES_TOKEN: 'x' }, main)).toThrow('GATEWAY_NOTES_TOKEN is set without GATEWAY_NOTES_URL');
    expect(() => gatewayConfigFromEnv({ GATEWAY_REST_OPENAPI_URL: 'http://docs' }, main)).toThrow('GATEWAY_REST_OPENAPI_URL is set without GATEWAY_REST_URL');
  });
});
