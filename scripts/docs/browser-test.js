#!/usr/bin/env node
// The built docs site (`pnpm docs:build` first) in a real browser: Debian's Chromium, driven by
// playwright-core (as apps/notes/test/board.browser.e2e.spec.ts drives it), loads every page of
// docs/.site/dist from a static server on loopback. A page fails on any console error, uncaught
// exception, failed request or answer >= 400; every link inside the site must reach a built page,
// and its #anchor an element of that page. Then a search in the site's local index, following the
// first result, and screenshots of the home page and one guide in .cache/artifacts/docs/ (CI's
// artefacts). Exit 0/1; the last line is "N passed, M failed". CHROMIUM=<path> picks the browser.
// `--build` (CI's stage) first builds the site (scripts/docs/build.js) and counts that as a check,
// and another that it shows the examples' output docs/test/examples.spec.ts recorded (run that spec
// first: .cache/docs/example-output.json).
'use strict';
// The functions given to page.evaluate and page.waitForFunction run in the page, where document is.
/* global document */

const { spawnSync } = require('node:child_process');
const { createServer } = require('node:http');
const { existsSync, mkdirSync, readdirSync, readFileSync, statSync } = require('node:fs');
const { extname, join, relative, sep } = require('node:path');

const ROOT = join(__dirname, '..', '..');
const SITE = join(ROOT, 'docs', '.site', 'dist');
const ARTIFACTS = join(ROOT, '.cache', 'artifacts', 'docs');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const OUTPUTS = join(ROOT, '.cache', 'docs', 'example-output.json');
const GUIDE = 'tools.html';
const SEARCH = { query: 'elicitation', expect: /elicit/i };
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

let passed = 0;
let failed = 0;
function check(name, problems) {
  if (problems.length === 0) {
    passed++;
    console.log(`ok: ${name}`);
  } else {
    failed++;
    console.log(`FAILED: ${name}`);
    for (const problem of problems.slice(0, 20)) console.log(`  ${problem}`);
    if (problems.length > 20) console.log(`  … and ${problems.length - 20} more`);
  }
}

/** Every built page, as the URL path the site links it by. */
function builtPages(dir = SITE) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'assets' ? [] : builtPages(path);
    return entry.name.endsWith('.html') && path !== join(SITE, '404.html') ? ['/' + relative(SITE, path).split(sep).join('/')] : [];
  });
}

/** The file a site path names: /x/ is /x/index.html; with cleanUrls a link may omit .html. */
function fileOf(pathname) {
  let path = decodeURIComponent(pathname);
  if (path.endsWith('/')) path += 'index.html';
  const file = join(SITE, path);
  if (!file.startsWith(SITE)) return undefined;
  if (existsSync(file) && statSync(file).isFile()) return file;
  if (existsSync(`${file}.html`)) return `${file}.html`;
  return undefined;
}

/** Serves the built site on 127.0.0.1; unknown paths get the site's 404 page with status 404. */
async function serveSite() {
  const server = createServer((request, response) => {
    const file = fileOf(new URL(request.url ?? '/', 'http://x').pathname);
    if (!file) return void response.writeHead(404, { 'content-type': TYPES['.html'] }).end(readFileSync(join(SITE, '404.html')));
    response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${server.address().port}` };
}

/** Loads `path` and collects what went wrong on the way, its element ids and the links it holds. */
async function visit(page, origin, path) {
  const problems = [];
  const onConsole = (message) => message.type() === 'error' && problems.push(`console error: ${message.text()}`);
  const onError = (error) => problems.push(`uncaught: ${error.message}`);
  // ERR_ABORTED: a prefetch of a linked page the browser dropped when the test moved on.
  const onFailed = (request) =>
    request.failure()?.errorText !== 'net::ERR_ABORTED' && problems.push(`request failed: ${request.url()} (${request.failure()?.errorText})`);
  const onResponse = (response) => response.status() >= 400 && problems.push(`${response.status()} for ${response.url()}`);
  page.on('console', onConsole);
  page.on('pageerror', onError);
  page.on('requestfailed', onFailed);
  page.on('response', onResponse);
  try {
    await page.goto(origin + path, { waitUntil: 'load', timeout: 30_000 });
    // Hydrated: VitePress marks the document once its app has mounted.
    await page.waitForFunction(() => document.querySelector('#app')?.__vue_app__ !== undefined, undefined, { timeout: 30_000 });
    const { ids, links } = await page.evaluate(() => ({
      ids: [...document.querySelectorAll('[id]')].map((element) => element.id),
      links: [...document.querySelectorAll('a[href]')].map((anchor) => anchor.href),
    }));
    return { problems, ids, links };
  } catch (error) {
    problems.push(`did not load: ${error.message}`);
    return { problems, ids: [], links: [] };
  } finally {
    page.off('console', onConsole);
    page.off('pageerror', onError);
    page.off('requestfailed', onFailed);
    page.off('response', onResponse);
  }
}

/** Links inside the site that reach no built page, or an anchor that page does not have. */
function brokenLinks(origin, links, idsByPage) {
  const broken = [];
  for (const href of links) {
    const url = new URL(href);
    if (url.origin !== origin) continue;
    const file = fileOf(url.pathname);
    if (!file) {
      broken.push(`${href}: no such page`);
      continue;
    }
    if (!url.hash || url.hash === '#') continue;
    const path = '/' + relative(SITE, file).split(sep).join('/');
    const ids = idsByPage.get(path);
    const id = decodeURIComponent(url.hash.slice(1));
    if (ids && !ids.has(id)) broken.push(`${href}: ${path} has no element #${id}`);
  }
  return broken;
}

async function search(page, origin) {
  const problems = [];
  await page.goto(origin + '/', { waitUntil: 'load' });
  await page.waitForFunction(() => document.querySelector('#app')?.__vue_app__ !== undefined);
  await page.locator('.DocSearch-Button').click();
  await page.locator('.VPLocalSearchBox input.search-input').fill(SEARCH.query);
  const first = page.locator('.VPLocalSearchBox ul.results a.result').first();
  await first.waitFor({ timeout: 20_000 });
  const count = await page.locator('.VPLocalSearchBox ul.results a.result').count();
  const target = await first.getAttribute('href');
  const title = (await first.locator('.titles').innerText()).replace(/\s+/g, ' ').trim();
  console.log(`  search "${SEARCH.query}": ${count} results, the first "${title}" (${target})`);
  await first.click();
  await page.waitForURL((url) => url.pathname !== '/', { timeout: 20_000 });
  const url = new URL(page.url());
  if (!fileOf(url.pathname)) problems.push(`the first result led to ${page.url()}, no built page`);
  if (url.hash) {
    const id = decodeURIComponent(url.hash.slice(1));
    const heading = page.locator(`[id="${id}"]`);
    // The site is a single-page app: the result's page renders after the URL changes.
    await heading.waitFor({ timeout: 20_000 }).catch(() => undefined);
    if ((await heading.count()) === 0) problems.push(`the first result's anchor #${id} is not on ${url.pathname}`);
    else if (!SEARCH.expect.test(await heading.innerText())) {
      const text = await page.locator('.vp-doc').innerText();
      if (!SEARCH.expect.test(text)) problems.push(`${url.pathname} does not mention ${SEARCH.query}`);
    }
  }
  return problems;
}

/** `pnpm docs:build`, timed, as the first checks of CI's stage. */
function build() {
  const recorded = existsSync(OUTPUTS) ? Object.keys(JSON.parse(readFileSync(OUTPUTS, 'utf8'))).length : 0;
  check(
    `the examples' output recorded by docs/test/examples.spec.ts is there to show (${recorded} examples)`,
    recorded > 0 ? [] : [`${relative(ROOT, OUTPUTS)} is missing or empty: run npx jest docs/test/examples.spec.ts first`],
  );
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [join(__dirname, 'build.js')], { stdio: 'inherit' });
  console.log(`docs:build took ${(Number(process.hrtime.bigint() - started) / 1e9).toFixed(0)} s`);
  check('pnpm docs:build (TypeDoc, then VitePress)', result.status === 0 ? [] : [`exit status ${result.status ?? result.signal}`]);
  return result.status === 0;
}

async function main() {
  if (process.argv.includes('--build') && !build()) {
    console.log(`${passed} passed, ${failed} failed`);
    process.exit(1);
  }
  if (!existsSync(join(SITE, 'index.html'))) {
    console.log(`FAILED: no built site in ${relative(ROOT, SITE)}: run pnpm docs:build first`);
    console.log(`${passed} passed, ${failed + 1} failed`);
    process.exit(1);
  }
  const { chromium } = require(require.resolve('playwright-core', { paths: [join(ROOT, 'docs')] }));
  const { server, origin } = await serveSite();
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // Only loopback: a page that reaches out to the network is a finding, not a download.
    await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort('blockedbyclient'));
    const page = await context.newPage();
    const pages = builtPages();
    const idsByPage = new Map();
    const linksByPage = new Map();
    for (const path of pages) {
      const { problems, ids, links } = await visit(page, origin, path);
      idsByPage.set(path, new Set(ids));
      linksByPage.set(path, links);
      check(`${path} loads with no console error or failed request`, problems);
    }
    for (const path of pages) check(`${path}: its links inside the site reach a page and anchor`, brokenLinks(origin, linksByPage.get(path), idsByPage));

    check(`search "${SEARCH.query}" finds it and its first result opens`, await search(page, origin).catch((error) => [error.message]));

    mkdirSync(ARTIFACTS, { recursive: true });
    const shots = [];
    for (const [name, path] of [
      ['home.png', '/'],
      ['guide-tools.png', `/${GUIDE}`],
    ]) {
      try {
        await page.goto(origin + path, { waitUntil: 'load' });
        await page.screenshot({ path: join(ARTIFACTS, name) });
      } catch (error) {
        shots.push(`${name}: ${error.message}`);
      }
    }
    check(`screenshots of the home page and a guide in ${relative(ROOT, ARTIFACTS)}`, shots);
    await context.close();
  } finally {
    await browser.close();
    server.close();
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

main().catch((error) => {
  console.log(`FAILED: ${error.stack ?? error}`);
  console.log(`${passed} passed, ${failed + 1} failed`);
  process.exit(1);
});
