import type { OperationParameter } from './operation';
import { cookiePair, headerValue, pathValue, queryPairs } from './serialize';

function parameter(given: Partial<OperationParameter> & Pick<OperationParameter, 'in'>): OperationParameter {
  const style = given.style ?? (given.in === 'query' || given.in === 'cookie' ? 'form' : 'simple');
  return { name: 'id', argument: 'id', required: false, style, explode: style === 'form', allowReserved: false, ...given };
}

// The examples of the OpenAPI 3.1 specification's "Style Examples" table, for the styles a path
// and a query use (color = "blue", ["blue","black","brown"], {R:100,G:200,B:150}).
const ARRAY = ['blue', 'black', 'brown'];
const OBJECT = { R: 100, G: 200, B: 150 };

describe('pathValue', () => {
  it.each<[string, boolean, unknown, string]>([
    ['simple', false, 'blue', 'blue'],
    ['simple', false, ARRAY, 'blue,black,brown'],
    ['simple', false, OBJECT, 'R,100,G,200,B,150'],
    ['simple', true, OBJECT, 'R=100,G=200,B=150'],
    ['label', false, 'blue', '.blue'],
    ['label', true, ARRAY, '.blue.black.brown'],
    ['matrix', false, 'blue', ';color=blue'],
    ['matrix', true, ARRAY, ';color=blue;color=black;color=brown'],
    ['matrix', true, OBJECT, ';R=100;G=200;B=150'],
  ])('%s (explode %s) of %j is %s', (style, explode, value, expected) => {
    expect(pathValue(parameter({ in: 'path', name: 'color', style, explode }), value)).toBe(expected);
  });

  it('keeps a value inside its segment', () => {
    expect(pathValue(parameter({ in: 'path' }), '../admin?x=1#y')).toBe('..%2Fadmin%3Fx%3D1%23y');
  });
});

describe('queryPairs', () => {
  it.each<[string, boolean, unknown, string[]]>([
    ['form', true, 'blue', ['color=blue']],
    ['form', true, ARRAY, ['color=blue', 'color=black', 'color=brown']],
    ['form', false, ARRAY, ['color=blue,black,brown']],
    ['form', true, OBJECT, ['R=100', 'G=200', 'B=150']],
    ['form', false, OBJECT, ['color=R,100,G,200,B,150']],
    ['spaceDelimited', false, ARRAY, ['color=blue%20black%20brown']],
    ['pipeDelimited', false, ARRAY, ['color=blue|black|brown']],
    ['deepObject', true, OBJECT, ['color%5BR%5D=100', 'color%5BG%5D=200', 'color%5BB%5D=150']],
  ])('%s (explode %s) of %j is %j', (style, explode, value, expected) => {
    expect(queryPairs(parameter({ in: 'query', name: 'color', style, explode }), value)).toEqual(expected);
  });

  it('encodes reserved characters unless allowReserved', () => {
    expect(queryPairs(parameter({ in: 'query', name: 'q' }), 'a&b=c/d')).toEqual(['q=a%26b%3Dc%2Fd']);
    expect(queryPairs(parameter({ in: 'query', name: 'q', allowReserved: true }), 'a/b:c')).toEqual(['q=a/b:c']);
  });
});

describe('headerValue and cookiePair', () => {
  it('joins lists with commas, as the simple style says', () => {
    expect(headerValue(parameter({ in: 'header' }), ARRAY)).toBe('blue,black,brown');
    expect(headerValue(parameter({ in: 'header', explode: true }), OBJECT)).toBe('R=100,G=200,B=150');
    expect(headerValue(parameter({ in: 'header' }), 5)).toBe('5');
  });

  it('encodes a cookie value', () => {
    expect(cookiePair(parameter({ in: 'cookie', name: 'session' }), 'a b;c')).toBe('session=a%20b%3Bc');
  });
});
