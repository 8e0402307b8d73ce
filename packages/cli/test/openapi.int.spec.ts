import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';
import { createApp } from '@mcpkit/core';
import { fromOpenApi } from '@mcpkit/openapi';
import { TestClient } from '@mcpkit/testing';
import { startRestService, type RestService } from '../../openapi/test/rest-service';
import { sh } from './sh';

const ROOT = join(__dirname, '..', '..', '..');
const CLI = join(ROOT, 'packages', 'cli', 'dist', 'cli.js');

/** The type errors of a file under the house's compiler options (tsconfig.base.json), its imports resolved as a user's would be. */
function typeErrors(file: string): string[] {
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.base.json'), (path) => ts.sys.readFile(path));
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const program = ts.createProgram([file], { ...options, noEmit: true, incremental: false, types: ['node'], noUnusedLocals: true, noUnusedParameters: true });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

// `mcpkit openapi` (the built CLI) writes a decorated class for a real service's document
// (@fastify/swagger's): it type-checks under the house's compiler options, and served by an app
// it offers the tools fromOpenApi offers, which answer from the service.
describe('mcpkit openapi', () => {
  let rest: RestService;
  let folder: string;
  beforeAll(async () => {
    rest = await startRestService();
    folder = mkdtempSync(join(__dirname, 'generated-'));
    writeFileSync(join(folder, 'notes.openapi.json'), JSON.stringify(rest.document));
  });
  afterAll(async () => {
    await rest.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('generates a class that type-checks and serves the same tools', async () => {
    const out = join(folder, 'api.tools.ts');
    const run = await sh(
      'node',
      [CLI, 'openapi', join(folder, 'notes.openapi.json'), '--out', out, '--class', 'NotesApi', '--exclude', 'tag:write'],
      ROOT,
      60_000,
    );
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const source = readFileSync(out, 'utf8');
    expect(source).toContain('export class NotesApi {');
    expect(source).toContain('getNote(input: GetNoteInput, ctx: RequestContext): Promise<CallToolResult> {');
    expect(typeErrors(out)).toEqual([]);

    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { NotesApi } = require(out) as { NotesApi: new (options: { baseUrl: string }) => object };
    const generated = await TestClient.connect(createApp({ name: 'generated', version: '1.0.0', providers: [new NotesApi({ baseUrl: rest.baseUrl })] }));
    const direct = await TestClient.connect(
      createApp({ name: 'direct', version: '1.0.0', providers: await fromOpenApi(rest.document, { baseUrl: rest.baseUrl, exclude: [{ tag: 'write' }] }) }),
    );
    try {
      const listed = await generated.listTools();
      expect(listed.map((tool) => tool.name).sort()).toEqual(['exportAll', 'getNote', 'listNotes']);
      expect(listed).toEqual(await direct.listTools());
      expect(await generated.callTool('getNote', { id: 'n1' })).toEqual(await direct.callTool('getNote', { id: 'n1' }));
      expect((await generated.callTool('getNote', { id: 'n1' })).structuredContent).toEqual({ id: 'n1', text: 'first', tags: ['a'] });
      expect((await generated.callTool('getNote', { id: 'nope' })).isError).toBe(true);
      expect((await generated.callTool('getNote', {})).content).toEqual([
        { type: 'text', text: expect.stringContaining('Invalid arguments for tool getNote') },
      ]);
    } finally {
      generated.close();
      direct.close();
    }
  });

  it.each(['petstore-3.0.yaml', 'tictactoe-3.1.yaml'])('generates a class that type-checks for the vendored %s', async (file) => {
    const out = join(folder, `${file}.tools.ts`);
    const run = await sh('node', [CLI, 'openapi', join(ROOT, 'packages', 'openapi', 'test', 'fixtures', file), '--out', out], ROOT, 60_000);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(typeErrors(out)).toEqual([]);
  });

  it('gives every operation a method, a request constant and an input type of its own', async () => {
    // json-schema-to-typescript loads Prettier by a dynamic import jest cannot run: checked through the built CLI.
    const operation = (operationId: string) => ({ operationId, description: 'Reads */ carefully', responses: {} });
    const document = {
      openapi: '3.1.0',
      info: { title: 'names', version: '1' },
      servers: [{ url: 'https://api.test' }],
      paths: {
        '/a': { get: operation('get-item') },
        '/b': { get: operation('get_item') },
        '/c': { get: operation('constructor') },
        '/d': { get: operation('2fa.check') },
      },
    };
    writeFileSync(join(folder, 'names.json'), JSON.stringify(document));
    const out = join(folder, 'names.tools.ts');
    expect(await sh('node', [CLI, 'openapi', join(folder, 'names.json'), '--out', out], ROOT, 60_000)).toMatchObject({ code: 0 });
    const source = readFileSync(out, 'utf8');
    expect(source.match(/^ {2}[a-zA-Z0-9]+\(input: \w+, ctx: RequestContext\)/gm)).toEqual([
      '  getItem(input: GetItemInput, ctx: RequestContext)',
      '  getItem2(input: GetItem2Input, ctx: RequestContext)',
      '  constructorOperation(input: ConstructorOperationInput, ctx: RequestContext)',
      '  t2faCheck(input: T2FaCheckInput, ctx: RequestContext)',
    ]);
    expect(source).toContain('const GET_ITEM2: OperationRequest');
    expect(source).toContain('this.api = openApiClient({ baseUrl: "https://api.test", ...options });');
    // A description is a string literal, where nothing it holds can end a comment or the string.
    expect(source).toContain('"description": "Reads */ carefully"');
    expect(typeErrors(out)).toEqual([]);
  });

  it('answers a document it cannot read with a usage error', async () => {
    const run = await sh('node', [CLI, 'openapi', join(folder, 'missing.yaml')], ROOT, 60_000);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Cannot read the OpenAPI document');
  });
});
