import { ParamHeaders } from './param-headers';

const tool = (name: string, properties: Record<string, unknown>) => ({ name, inputSchema: { type: 'object', properties } });

describe('ParamHeaders', () => {
  it('mirrors the x-mcp-header arguments of a listed tool, nested ones too, and skips absent or null values', () => {
    const headers = new ParamHeaders();
    headers.learn([
      tool('book', {
        region: { type: 'string', 'x-mcp-header': 'Region' },
        seats: { type: 'integer', 'x-mcp-header': 'Seats' },
        meta: {
          type: 'object',
          properties: { urgent: { type: 'boolean', 'x-mcp-header': 'Urgent' }, note: { type: ['string', 'null'], 'x-mcp-header': 'Note' } },
        },
      }),
    ]);
    expect(headers.headersOf('book', { region: 'zürich', seats: 2, meta: { urgent: false, note: null } })).toEqual({
      'mcp-param-region': '=?base64?esO8cmljaA==?=',
      'mcp-param-seats': '2',
      'mcp-param-urgent': 'false',
    });
    expect(headers.headersOf('book', {})).toEqual({});
    expect(headers.headersOf('other', { region: 'x' })).toEqual({});
  });

  it('drops a tool whose annotation is invalid, as the spec asks of clients', () => {
    const headers = new ParamHeaders();
    const kept = headers.learn([
      tool('fine', { a: { type: 'string' } }),
      tool('number', { n: { type: 'number', 'x-mcp-header': 'N' } }),
      tool('spaces', { s: { type: 'string', 'x-mcp-header': 'Not A Token' } }),
      tool('twice', { a: { type: 'string', 'x-mcp-header': 'X' }, b: { type: 'string', 'x-mcp-header': 'x' } }),
    ]);
    expect((kept as Array<{ name: string }>).map((entry) => entry.name)).toEqual(['fine']);
  });
});
