import { isAllowedHost, isAllowedOrigin } from './host-origin';
import { HostOriginCheck } from './host-origin-check';

describe('HostOriginCheck', () => {
  const hosts = ['localhost', '127.0.0.1', 'api.example.com:8443'];
  const origins = ['https://app.example.com'];

  it('gives the same verdict as isAllowedHost whatever order the hosts come in', () => {
    const check = new HostOriginCheck(hosts, origins);
    const sequence = [
      'localhost:3000',
      'localhost:3000',
      'evil.example',
      'evil.example',
      '127.0.0.1',
      'API.example.com:8443',
      'api.example.com:9',
      undefined,
      '',
    ];
    for (const host of [...sequence, ...sequence.reverse()]) expect(check.host(host)).toBe(isAllowedHost(host, hosts));
  });

  it('gives the same verdict as isAllowedOrigin, and allows a request without Origin', () => {
    const check = new HostOriginCheck(hosts, origins);
    const sequence = [
      'https://app.example.com',
      'https://evil.example',
      'https://evil.example',
      'http://localhost:5173',
      'not a url',
      'https://app.example.com',
    ];
    for (const origin of sequence) expect(check.origin(origin)).toBe(isAllowedOrigin(origin, origins, hosts));
    expect(check.origin(undefined)).toBe(true);
    // The last verdict is not the answer for a request without the header.
    expect(check.origin('https://evil.example')).toBe(false);
    expect(check.origin(undefined)).toBe(true);
  });

  it('does not take a refused host for an allowed one after an allowed one', () => {
    const check = new HostOriginCheck(['localhost'], []);
    expect(check.host('localhost')).toBe(true);
    expect(check.host('localhost.evil.example')).toBe(false);
    expect(check.host('localhost')).toBe(true);
  });
});
