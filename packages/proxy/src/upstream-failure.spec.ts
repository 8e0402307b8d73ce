import { ClientErrorCode } from '@mcpkit/client';
import { upstreamFailure } from './upstream-failure';

describe('upstreamFailure', () => {
  it('says what failed in a fixed sentence per client code, the HTTP status only from its data', () => {
    expect(upstreamFailure(ClientErrorCode.ConnectionClosed, { stderr: 'password=hunter2' })).toBe('the connection to the upstream server closed');
    expect(upstreamFailure(ClientErrorCode.HttpStatus, { status: 503, url: 'https://user:secret@remote/mcp' })).toBe('the upstream server answered HTTP 503');
    expect(upstreamFailure(ClientErrorCode.HttpStatus, { status: 'https://user:secret@remote' })).toBe('the upstream server answered an HTTP error');
    expect(upstreamFailure(-31199, undefined)).toBe('the upstream server could not be reached');
  });

  it('has a sentence for every code the client defines', () => {
    for (const code of Object.values(ClientErrorCode)) expect(upstreamFailure(code, { status: 500 })).not.toBe('the upstream server could not be reached');
  });
});
