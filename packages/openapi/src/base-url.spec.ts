import { documentBaseUrl } from './base-url';

describe('documentBaseUrl', () => {
  it('takes the first server’s absolute URL', () => {
    expect(documentBaseUrl({ servers: [{ url: 'https://api.test/v1' }, { url: 'https://other.test' }] })).toBe('https://api.test/v1');
    expect(documentBaseUrl({})).toBeUndefined();
  });

  it('replaces the server’s variables by their defaults', () => {
    const servers = [
      { url: '{scheme}://{region}.api.test/{version}', variables: { scheme: { default: 'https' }, region: { default: 'eu' }, version: { default: 'v2' } } },
    ];
    expect(documentBaseUrl({ servers })).toBe('https://eu.api.test/v2');
    expect(documentBaseUrl({ servers: [{ url: 'https://{region}.api.test' }] })).toBeUndefined();
    expect(documentBaseUrl({ servers: [{ url: 'https://{constructor}.api.test', variables: {} }] })).toBeUndefined();
  });

  it('resolves a relative URL against where the document was read from, and only there', () => {
    const document = { servers: [{ url: '/api/v3' }] };
    expect(documentBaseUrl(document, 'https://petstore3.swagger.io/api/v3/openapi.json')).toBe('https://petstore3.swagger.io/api/v3');
    expect(documentBaseUrl(document, new URL('http://127.0.0.1:8080/docs/json'))).toBe('http://127.0.0.1:8080/api/v3');
    expect(documentBaseUrl(document, '/srv/openapi.yaml')).toBeUndefined();
    expect(documentBaseUrl(document)).toBeUndefined();
  });
});
