import { join } from 'node:path';

// Issue #27, item 4: HTTP statuses come from one transport-fault table (`src/transport-faults.ts`)
// and the eras' tables in core; the HTTP core's other files and the bindings (this package,
// @mcpkit/fastify, @mcpkit/stdio) never pass a numeric status to a result builder nor make a wire
// error. `node scripts/guard/http-statuses.js` prints what breaks it, as file:line.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const guard = require(join(__dirname, '..', '..', '..', 'scripts', 'guard', 'http-statuses.js')) as {
  check(source: string, wireErrors: ReadonlySet<string>): string[];
  violations(): string[];
  wireErrorClasses(root: string): Set<string>;
};

const WIRE = new Set(['McpError', 'InvalidRequestError']);

describe('the HTTP status table', () => {
  it('no status or wire error is decided outside src/transport-faults.ts', () => {
    expect(guard.violations()).toEqual([]);
  });

  it("knows core's wire errors: McpError and every subclass, however deep", () => {
    const classes = guard.wireErrorClasses(join(__dirname, '..', '..', '..'));
    for (const name of ['McpError', 'InvalidRequestError', 'InternalError', 'ParseError', 'InvalidTokenDenial', 'AuthenticationRequiredError']) {
      expect(classes).toContain(name);
    }
    expect(classes).not.toContain('InvalidTokenError');
  });

  it('reports a status passed to a builder, set as a property or assigned, with its line', () => {
    expect(guard.check('const a = 1;\nreturn errorResult(404, error);', WIRE)).toEqual(['2: status 404 passed to errorResult()']);
    expect(guard.check('return jsonResult(denied ? 401 : 403, answer, limits);', WIRE)).toEqual([
      '1: status 401 passed to jsonResult()',
      '1: status 403 passed to jsonResult()',
    ]);
    expect(guard.check('return { status: 204, headers, body: undefined };', WIRE)).toEqual(['1: status 204 set as status']);
    expect(guard.check("core.fault({ kind: 'client-error', status: 400, message });", WIRE)).toEqual(['1: status 400 set as status']);
    expect(guard.check('res.statusCode = 503;', WIRE)).toEqual(['1: status 503 assigned to statusCode']);
    expect(guard.check('res.writeHead(413, headers); reply.code(415);', WIRE)).toEqual([
      '1: status 413 passed to writeHead()',
      '1: status 415 passed to code()',
    ]);
  });

  it('reports a function that takes a status, and the numbers passed to it', () => {
    expect(guard.check('function refuse(request: R, status: number) {}\nrefuse(request, 400);', WIRE)).toEqual([
      '1: refuse takes a status: name a fault of packages/http/src/transport-faults.ts',
      '2: status 400 passed to refuse()',
    ]);
    expect(guard.check('const body = clientErrorResult(code, reason).body;', WIRE)).toHaveLength(1);
  });

  it('reports a wire error made outside the table', () => {
    expect(guard.check("send(errorResponse(null, new InvalidRequestError('too big')));", WIRE)).toEqual([
      "1: wire error new InvalidRequestError(): name a fault of packages/http/src/transport-faults.ts (or core's answer)",
    ]);
  });

  it('leaves other numbers and errors alone', () => {
    const source = [
      'const limit = Math.max(100, 250);',
      "if (response.status !== 200) throw new Error('upstream');",
      'const port = { port: 443, timeoutMs: 500 };',
      "throw new InvalidTokenError('expired');",
      'if (status >= 400 && status < 500) return undefined;',
      'return faultResult(FAULTS.unknownSession(), id);',
    ].join('\n');
    expect(guard.check(source, WIRE)).toEqual([]);
  });
});
