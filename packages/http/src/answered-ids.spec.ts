import { answeredIds } from './answered-ids';

describe('answeredIds', () => {
  it('names the ids a response or a batch answers, none for notifications and requests, undefined for what is not JSON', () => {
    expect(answeredIds('{"jsonrpc":"2.0","id":7,"result":{}}')).toEqual({ ids: [7], batch: false });
    expect(answeredIds('{"jsonrpc":"2.0","id":"a","error":{"code":-1,"message":"x"}}')).toEqual({ ids: ['a'], batch: false });
    expect(
      answeredIds('[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","method":"notifications/progress"},{"jsonrpc":"2.0","id":2,"error":{}}]'),
    ).toEqual({
      ids: [1, 2],
      batch: true,
    });
    expect(answeredIds('{"jsonrpc":"2.0","method":"notifications/progress","params":{}}')).toEqual({ ids: [], batch: false });
    expect(answeredIds('{"jsonrpc":"2.0","id":3,"method":"elicitation/create","params":{}}')).toEqual({ ids: [], batch: false });
    expect(answeredIds('{"jsonrpc":"2.0","id":4}')).toEqual({ ids: [], batch: false });
    expect(answeredIds('not json')).toBeUndefined();
    expect(answeredIds('null')).toEqual({ ids: [], batch: false });
  });
});
