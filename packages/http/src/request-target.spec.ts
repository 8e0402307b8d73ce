import { decodePath, originForm, pathEnd, queryOf } from './request-target';

describe('queryOf', () => {
  it('reads a repeated name as a list', () => {
    expect(queryOf(new URLSearchParams('x=1&y=2&x=3'))).toEqual({ x: ['1', '3'], y: '2' });
  });

  it("reads a name an object inherits (constructor, toString, __proto__) as sent, as Fastify's parser does", () => {
    const query = queryOf(new URLSearchParams('constructor=a&toString=b&__proto__=c&hasOwnProperty=d&hasOwnProperty=e'));
    expect({ ...query }).toEqual({ constructor: 'a', toString: 'b', ['__proto__']: 'c', hasOwnProperty: ['d', 'e'] });
    expect(Object.keys(query)).toEqual(['constructor', 'toString', '__proto__', 'hasOwnProperty']);
  });
});

describe('request targets as Fastify routes them', () => {
  it.each([
    ['/mcp?x=1', '/mcp?x=1'],
    ['http://127.0.0.1:3000/mcp?x=1', '/mcp?x=1'],
    ['HTTPS://host', '/'],
    ['http://host?x=1', '/?x=1'],
    ['http://host/mcp#x', 'http://host/mcp#x'],
    ['ftp://host/mcp', 'ftp://host/mcp'],
    ['http:///mcp', 'http:///mcp'],
    ['*', '*'],
  ])('%s is %s', (target, origin) => expect(originForm(target)).toBe(origin));

  it.each([
    ['/mcp', -1],
    ['/mcp?x=1#y', 4],
    ['/mcp#x?y', 4],
    ['/mcp#a#b', 4],
  ])('the path of %s ends at %d', (target, end) => expect(pathEnd(target)).toBe(end));

  it('decodes what a router decodes, and keeps a malformed escape', () => {
    expect(decodePath('/mc%70')).toBe('/mcp');
    expect(decodePath('/mcp%2F')).toBe('/mcp%2F');
    expect(decodePath('/mcp%')).toBe('/mcp%');
  });
});
