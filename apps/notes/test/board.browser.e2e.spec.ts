import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, extname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { HttpServerProcess } from '@mcpkit/testing';
import { buildSync } from 'esbuild';
import { chromium, type BrowserContext, type FrameLocator, type Page } from 'playwright-core';
import { NoteStore } from '../src/note-store';

// The notes board in a real browser: Debian's Chromium (installed by scripts/ensure-test-servers.js,
// as redis-server and nginx are), driven by playwright-core, opens a small web host
// (test/browser/host.ts) that speaks MCP to the running notes server over loopback HTTP and hands
// the board to the view through the extension's own host bridge (AppBridge), in a sandboxed
// iframe behind a sandbox proxy of another origin. The view (built with the extension's App SDK)
// lists the notes, searches, and creates one through the bridge; the test reads the DOM, the
// host's record of the view's calls and the server's notes, and keeps a screenshot:
// .cache/artifacts/apps-board.png on every run (CI's artefact), docs/images/apps-board.png when
// MCPKIT_UPDATE_SCREENSHOTS=1 (the one docs/apps.md shows).
const ROOT = join(__dirname, '..', '..', '..');
const MAIN = join(__dirname, '..', 'dist', 'main.js');
const BROWSER = join(__dirname, 'browser');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

const SEEDED = [
  { title: 'Groceries', body: 'Milk, eggs, coffee beans', tags: ['home'] },
  { title: 'Call Ada', body: 'About the analytical engine, Thursday', tags: ['people'] },
  { title: 'Release notes', body: 'MCP Apps: the notes board', tags: ['work', 'mcpkit'] },
];

/** What the host page records (test/browser/host.ts, `window.host`). */
interface HostState {
  modelTools: string[];
  viewCalls: Array<{ name: string; allowed: boolean }>;
  initialized: boolean;
  error?: string;
}

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8' };

/** The host page and the sandbox proxy, bundled for the browser (the host with the App SDK's bridge and the MCP client). */
function buildHostPages(dir: string): void {
  buildSync({
    entryPoints: [join(BROWSER, 'host.ts'), join(BROWSER, 'sandbox.ts')],
    outdir: dir,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'warning',
  });
  for (const page of ['host.html', 'sandbox.html']) copyFileSync(join(BROWSER, page), join(dir, page));
}

/** Serves `dir` on loopback: the host page at 127.0.0.1, the sandbox proxy at localhost (another origin, same files). */
async function serveStatic(dir: string): Promise<{ server: Server; port: number }> {
  const server = createServer((request, response) => {
    const name = new URL(request.url ?? '/', 'http://x').pathname.slice(1);
    if (!/^[a-z]+\.(html|js)$/.test(name)) return void response.writeHead(404).end();
    try {
      const body = readFileSync(join(dir, name));
      response.writeHead(200, { 'content-type': TYPES[extname(name)], 'cache-control': 'no-store' }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

describe('the notes board in Chromium, through the MCP Apps host bridge', () => {
  let dir: string;
  let notes: HttpServerProcess;
  let pages: { server: Server; port: number };
  let context: BrowserContext;
  let page: Page;
  let view: FrameLocator;
  const errors: string[] = [];
  const host = () => page.evaluate<HostState>('window.host');

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcpkit-notes-board-'));
    const database = join(dir, 'notes.db');
    const store = new NoteStore(database);
    for (const note of SEEDED) store.create(note.title, note.body, note.tags);
    store.close();
    buildHostPages(join(dir, 'www'));
    [notes, pages] = await Promise.all([
      HttpServerProcess.start(process.execPath, [MAIN], { NOTES_DB: database, LOG_LEVEL: 'warn' }),
      serveStatic(join(dir, 'www')),
    ]);
    context = await chromium.launchPersistentContext(join(dir, 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 900, height: 640 },
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (error) => errors.push(error.message));
    const sandbox = `http://localhost:${pages.port}/sandbox.html`;
    await page.goto(`http://127.0.0.1:${pages.port}/host.html?server=${encodeURIComponent(notes.url)}&sandbox=${encodeURIComponent(sandbox)}`);
    // Strings: this program has no DOM types (the page's code is test/browser/, checked with them).
    await page.waitForFunction('window.host.initialized || window.host.error !== undefined', undefined, { timeout: 20_000 });
    expect((await host()).error).toBeUndefined();
    view = page.frameLocator('#view').frameLocator('iframe');
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await new Promise((resolve) => pages?.server.close(resolve));
    expect(await notes?.stop()).toEqual({ code: 0, signal: null });
    rmSync(dir, { recursive: true, force: true });
  });

  it('offers the model every tool but the board’s own, and shows the board in its sandbox', async () => {
    const { modelTools } = await host();
    expect(modelTools).toContain('show_board');
    expect(modelTools).toContain('create_note');
    expect(modelTools).not.toContain('board_notes');
    // The view lives in an opaque origin inside the proxy's: nothing of the host page is reachable from it.
    expect(await page.frameLocator('#view').locator('iframe').getAttribute('sandbox')).toBe('allow-scripts allow-forms');
  });

  it('lists the notes it asked for through the bridge', async () => {
    await expectTitles(view, ['Groceries', 'Call Ada', 'Release notes']);
    await expectStatus(view, '3 notes');
    expect(await view.locator('#notes li[data-id="3"] .tags').textContent()).toBe('#work #mcpkit');
  });

  it('searches as the user types', async () => {
    await view.locator('#query').fill('ada');
    await expectTitles(view, ['Call Ada']);
    await expectStatus(view, '1 note matching “ada”');
    await view.locator('#query').fill('');
    await expectTitles(view, ['Groceries', 'Call Ada', 'Release notes']);
  });

  it('creates a note with create_note through the host, and the server has it', async () => {
    await view.locator('#title').fill('Board demo');
    await view.locator('#body').fill('Added from the board, in Chromium');
    await view.locator('#tags').fill('demo, apps');
    await view.getByRole('button', { name: 'Add note' }).click();
    await expectStatus(view, 'Added #4 Board demo');
    await expectTitles(view, ['Groceries', 'Call Ada', 'Release notes', 'Board demo']);
    expect(await view.locator('#title').inputValue()).toBe('');

    const calls = (await host()).viewCalls;
    expect(calls.filter((call) => call.name === 'create_note')).toEqual([{ name: 'create_note', allowed: true }]);
    expect(calls.every((call) => call.allowed && ['board_notes', 'create_note'].includes(call.name))).toBe(true);

    // The server's state, read by another client.
    const client = new Client({ name: 'board-check', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(notes.url)));
    try {
      const found = await client.callTool({ name: 'search_notes', arguments: { query: 'Chromium' } });
      expect(found.content).toEqual([{ type: 'text', text: '#4 Board demo [demo, apps]' }]);
    } finally {
      await client.close();
    }

    const shot = await page.screenshot({ fullPage: true });
    writeFile(join(ROOT, '.cache', 'artifacts', 'apps-board.png'), shot);
    if (process.env.MCPKIT_UPDATE_SCREENSHOTS === '1') writeFile(join(ROOT, 'docs', 'images', 'apps-board.png'), shot);
    expect(errors).toEqual([]);
  });
});

function writeFile(path: string, data: Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, data);
}

/** Waits (20 s at most: CI runs it beside other suites) until the board lists exactly `titles`, in that order. */
async function expectTitles(view: FrameLocator, titles: string[]): Promise<void> {
  const shown = async () => (await view.locator('#notes li[data-id] .title').allTextContents()).map((text) => text.replace(/^#\d+ /, ''));
  let last: string[] = [];
  for (let attempt = 0; attempt < 200; attempt++) {
    last = await shown();
    if (JSON.stringify(last) === JSON.stringify(titles)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(last).toEqual(titles);
}

async function expectStatus(view: FrameLocator, text: string): Promise<void> {
  await view.locator('#status', { hasText: text }).waitFor({ timeout: 20_000 });
}
