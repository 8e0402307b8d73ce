#!/usr/bin/env node
// The built docs site (`pnpm docs:build` first) in a real browser: Debian's Chromium, driven by
// playwright-core (as apps/notes/test/board.browser.e2e.spec.ts drives it), loads every page of
// docs/.site/dist from a static server on loopback. A page fails on any console error, uncaught
// exception, failed request or answer >= 400; every link inside the site must reach a built page,
// and its #anchor an element of that page. Then a search in the site's local index, following the
// first result, and screenshots of the home page and one guide in .cache/artifacts/docs/ (CI's
// artefacts). What a reader would call broken but a page load does not show is checked too: every
// page has a place in the sidebar or nav; every image (a lazy one never loads in the test) names a
// file of the site; a link into this repository on GitHub (the reference's "Defined in", edit links)
// names a tracked file and a line it has; clicks (the appearance switch, the menus at 390 px, the
// sidebar's client-side navigation) raise no error; and a plain word ('tool', 'oauth') finds its
// guide first, not a reference member. Exit 0/1; the last line is "N passed, M failed". CHROMIUM=<path> picks the browser.
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
// The page a reader means by a plain word: its first search result must be one of them.
const FIRST_RESULTS = {
  tool: ['/tools.html'],
  elicitation: ['/client-requests.html'],
  oauth: ['/auth.html'],
  workers: ['/runtimes-workers.html', '/runtimes.html'],
  // An API name still finds its member in the reference.
  McpError: ['/reference/@mcpkit/core.html'],
};
const REPOSITORY_FILES = /^https:\/\/github\.com\/mcpkit\/mcpkit\/(?:blob|tree|edit)\/main\/([^#?]+)(?:#L(\d+))?/;
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

/** Records console errors, uncaught exceptions, failed requests and answers >= 400 into `problems` until the returned function is called. */
function watch(page, problems) {
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
  return () => {
    page.off('console', onConsole);
    page.off('pageerror', onError);
    page.off('requestfailed', onFailed);
    page.off('response', onResponse);
  };
}

/**
 * Loads `path` and collects what went wrong on the way, its element ids, the links it holds (and
 * those of its sidebar and nav), and its images' sources. The page's own toggles (a `<details>`, a
 * code group's tabs, a button but the copy one) are clicked: an error they raise is the page's.
 */
async function visit(page, origin, path) {
  const problems = [];
  const unwatch = watch(page, problems);
  try {
    await page.goto(origin + path, { waitUntil: 'load', timeout: 30_000 });
    // Hydrated: VitePress marks the document once its app has mounted.
    await page.waitForFunction(() => document.querySelector('#app')?.__vue_app__ !== undefined, undefined, { timeout: 30_000 });
    const found = await page.evaluate(() => ({
      ids: [...document.querySelectorAll('[id]')].map((element) => element.id),
      links: [...document.querySelectorAll('a[href]')].map((anchor) => anchor.href),
      navigation: [...document.querySelectorAll('.VPSidebar a[href], .VPNav a[href]')].map((anchor) => anchor.href),
      // `src` as resolved, whether or not a lazy image has loaded yet; srcset candidates too.
      images: [...document.querySelectorAll('img[src], source[srcset], img[srcset]')].flatMap((image) => [
        ...(image.src ? [image.src] : []),
        ...(image.srcset ?? '')
          .split(',')
          .map((candidate) => candidate.trim().split(/\s+/)[0])
          .filter(Boolean)
          .map((url) => new URL(url, document.baseURI).href),
      ]),
    }));
    const toggles = page.locator('.vp-doc summary, .vp-doc .tabs label, .vp-doc button:not(.copy)');
    for (let index = 0; index < (await toggles.count()); index++)
      await toggles
        .nth(index)
        .click({ timeout: 5_000 })
        .catch((error) => problems.push(`could not click a toggle: ${error.message}`));
    return { problems, ...found };
  } catch (error) {
    problems.push(`did not load: ${error.message}`);
    return { problems, ids: [], links: [], navigation: [], images: [] };
  } finally {
    unwatch();
  }
}

/** Images that are no file of the site (a lazy one is never requested while the test looks), or come from elsewhere. */
function brokenImages(origin, images) {
  return images.flatMap((src) => {
    const url = new URL(src);
    if (url.protocol === 'data:') return [];
    if (url.origin !== origin) return [`image from another site (blocked offline, tracked online): ${src}`];
    return fileOf(url.pathname) ? [] : [`image ${src}: no such file in the site`];
  });
}

/** The files git tracks (what GitHub shows on main once this commit is pushed), and their folders. */
function trackedFiles() {
  const listed = spawnSync('git', ['-C', ROOT, 'ls-files', '-z'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (listed.status !== 0) throw new Error(`git ls-files: ${listed.stderr}`);
  const files = new Set(listed.stdout.split('\0').filter(Boolean));
  const folders = new Set(
    [...files].flatMap((file) =>
      file
        .split('/')
        .slice(0, -1)
        .map((_, index, parts) => parts.slice(0, index + 1).join('/')),
    ),
  );
  return { files, folders };
}

/** Links to this repository on GitHub that name no tracked file or folder, or a line past a file's end. */
function brokenRepositoryLinks(links, tracked) {
  const lineCounts = new Map();
  const broken = new Set();
  for (const href of links) {
    const match = REPOSITORY_FILES.exec(href);
    if (!match) continue;
    const path = decodeURIComponent(match[1]).replace(/\/$/, '');
    if (!tracked.files.has(path)) {
      if (!tracked.folders.has(path)) broken.add(`${href}: ${path} is not in the repository`);
      continue;
    }
    if (!match[2]) continue;
    if (!lineCounts.has(path)) lineCounts.set(path, readFileSync(join(ROOT, path), 'utf8').split('\n').length);
    if (Number(match[2]) > lineCounts.get(path)) broken.add(`${href}: ${path} has ${lineCounts.get(path)} lines`);
  }
  return [...broken];
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

/** Types `query` into the open search box; its first result once the list shows this query's. */
async function typeQuery(page, query) {
  const before = await page.evaluate(() => document.querySelector('.VPLocalSearchBox ul.results')?.innerText ?? '');
  await page.locator('.VPLocalSearchBox input.search-input').fill(query);
  // The results follow the input after a debounce, all at once: wait until the list is another
  // (each query here gives a list of its own; the first starts from an empty one).
  await page.waitForFunction((previous) => (document.querySelector('.VPLocalSearchBox ul.results')?.innerText ?? '') !== previous, before, {
    timeout: 20_000,
  });
  const first = page.locator('.VPLocalSearchBox ul.results a.result').first();
  await first.waitFor({ timeout: 20_000 });
  return first;
}

/** Each word of FIRST_RESULTS typed into the open search box: its first result must be on its guide. */
async function firstResults(page) {
  const problems = [];
  for (const [query, expected] of Object.entries(FIRST_RESULTS)) {
    const first = await typeQuery(page, query);
    const href = (await first.getAttribute('href')) ?? '';
    const title = (await first.locator('.titles').innerText()).replace(/\s+/g, ' ').trim();
    const path = fileOf(new URL(href, 'http://x').pathname);
    const pagePath = path && '/' + relative(SITE, path).split(sep).join('/');
    console.log(`  search "${query}": first "${title}" (${href})`);
    if (!expected.includes(pagePath)) problems.push(`"${query}": the first result is "${title}" (${href}), not on ${expected.join(' or ')}`);
  }
  return problems;
}

async function search(page, origin) {
  const problems = [];
  const unwatch = watch(page, problems);
  try {
    await page.goto(origin + '/', { waitUntil: 'load' });
    await page.waitForFunction(() => document.querySelector('#app')?.__vue_app__ !== undefined);
    await page.locator('.DocSearch-Button').click();
    problems.push(...(await firstResults(page)));
    await followFirst(page, problems);
  } finally {
    unwatch();
  }
  return problems;
}

async function followFirst(page, problems) {
  const first = await typeQuery(page, SEARCH.query);
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
}

/**
 * What a reader clicks, with errors watched: the appearance switch (dark mode), every guide by its
 * sidebar link (client-side navigation fetches each page's chunk, which a full load of that page
 * does not prove), then at 390 px the nav and sidebar menus and a link in them; no page may be wider
 * than that screen.
 */
async function clickThrough(browser, origin) {
  const problems = [];
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort('blockedbyclient'));
  const page = await context.newPage();
  const unwatch = watch(page, problems);
  const hydrated = () => page.waitForFunction(() => document.querySelector('#app')?.__vue_app__ !== undefined);
  try {
    await page.goto(`${origin}/getting-started.html`, { waitUntil: 'load' });
    await hydrated();
    const dark = () => page.evaluate(() => document.documentElement.classList.contains('dark'));
    const before = await dark();
    await page.locator('.VPNavBarAppearance .VPSwitchAppearance').click();
    if ((await dark()) === before) problems.push('the appearance switch did not change the colour scheme');
    const guides = await page
      .locator('.VPSidebar a.link[href]:not([href*="/reference/"])')
      .evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href')));
    for (const href of new Set(guides.map((href) => href.split('#')[0]))) {
      // Getting started's entries are its sections: the first link into the page will do.
      const link = page.locator(`.VPSidebar a.link[href^="${href}"]`).first();
      await link.click();
      await page
        .waitForURL((url) => url.pathname === new URL(href, origin).pathname, { timeout: 20_000 })
        .catch(() => problems.push(`clicking ${href} in the sidebar did not open it`));
      await page
        .locator('.vp-doc h1')
        .first()
        .waitFor({ timeout: 20_000 })
        .catch(() => problems.push(`${href} opened from the sidebar shows no heading`));
    }
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of ['/', '/getting-started.html', `/${GUIDE}`, '/reference/@mcpkit/core.html']) {
      await page.goto(origin + path, { waitUntil: 'load' });
      await hydrated();
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > 390) problems.push(`${path} is ${width} px wide on a 390 px screen`);
    }
    await page.locator('.VPNavBarHamburger').click();
    await page.locator('.VPNavScreen a[href]').first().waitFor({ timeout: 10_000 });
    await page.locator('.VPNavBarHamburger').click();
    await page.locator('.VPLocalNav button.menu').click();
    const link = page.locator(`.VPSidebar a.link[href^="/${GUIDE.replace('.html', '')}"]`).first();
    await link.click();
    await page.waitForURL((url) => url.pathname.startsWith(`/${GUIDE.replace('.html', '')}`), { timeout: 20_000 });
    await page.screenshot({ path: join(ARTIFACTS, 'guide-tools-390px-dark.png') });
  } catch (error) {
    problems.push(error.message.split('\n')[0]);
  } finally {
    unwatch();
    await context.close();
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
    const navigation = new Set();
    const tracked = trackedFiles();
    for (const path of pages) {
      const { problems, ids, links, navigation: navLinks, images } = await visit(page, origin, path);
      idsByPage.set(path, new Set(ids));
      linksByPage.set(path, links);
      for (const href of navLinks) navigation.add(href);
      check(`${path} loads with no console error or failed request, its images are there`, [...problems, ...brokenImages(origin, images)]);
    }
    for (const path of pages) {
      const links = linksByPage.get(path);
      check(`${path}: its links inside the site reach a page and anchor, into the repository a file and line`, [
        ...brokenLinks(origin, links, idsByPage),
        ...brokenRepositoryLinks(links, tracked),
      ]);
    }
    const placed = new Set(
      [...navigation]
        .map((href) => new URL(href))
        .filter((url) => url.origin === origin)
        .map((url) => fileOf(url.pathname)),
    );
    const orphans = pages.filter((path) => path !== '/index.html' && !placed.has(join(SITE, path)));
    check(
      `every page has a place in the sidebar or nav (${pages.length - orphans.length} of ${pages.length})`,
      orphans.map((path) => `${path}: in no sidebar or nav`),
    );
    mkdirSync(ARTIFACTS, { recursive: true });
    check('clicks: appearance, every guide from the sidebar, the menus at 390 px', await clickThrough(browser, origin));

    check(`search "${SEARCH.query}" finds it and its first result opens`, await search(page, origin).catch((error) => [error.message]));

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
