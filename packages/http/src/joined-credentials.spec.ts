import { joinedCredentials } from './joined-credentials';

describe('joinedCredentials', () => {
  it.each([
    ['Bearer a, Bearer b', ['Bearer a', 'Bearer b']],
    ['Bearer a,Bearer b', ['Bearer a', 'Bearer b']],
    ['Bearer a, Basic dTpw', ['Bearer a', 'Basic dTpw']],
    ['Bearer abc==, Bearer def=', ['Bearer abc==', 'Bearer def=']],
    ['Bearer a, Negotiate', ['Bearer a', 'Negotiate']],
  ])('splits %j into the credentials it joins', (value, expected) => expect(joinedCredentials(value)).toEqual(expected));

  it.each([
    'Bearer a',
    'Digest realm="a", nonce="b", uri="/mcp"',
    'Digest realm="a, Bearer b", nonce = "c"',
    'Digest realm="a \\" , Bearer b", qop=auth',
    'Bearer a, ',
    'Bearer a,, ,',
    '',
  ])('keeps %j as one credential', (value) => expect(joinedCredentials(value)).toHaveLength(1));
});
