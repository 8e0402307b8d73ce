// The docs site (`pnpm docs:dev`, `pnpm docs:build`): VitePress over docs/*.md as they are on
// GitHub, the API reference TypeDoc writes into docs/reference/ (scripts/docs/build.js), and the
// output docs/test/examples.spec.ts saw from the examples (.cache/docs/example-output.json).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitepress';
import { examplesPlugin, githubSlug, literalInlineCodePlugin, REPOSITORY, repositoryLinksPlugin, slugifyWithState } from './markdown.mjs';

const DOCS = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUTPUTS = join(DOCS, '..', '.cache', 'docs', 'example-output.json');
const REFERENCE_SIDEBAR = join(DOCS, 'reference', 'typedoc-sidebar.json');

const GETTING_STARTED = [
  { text: 'Install', link: '/getting-started#install' },
  { text: 'Your first tool', link: '/getting-started#your-first-tool' },
  { text: 'Connect a client', link: '/getting-started#connect-a-client' },
  { text: 'Deploy', link: '/getting-started#deploy' },
];

// Guides by feature: [page, label]. A page of docs/ left out here still gets a place, under "More".
const GUIDES = [
  [
    'Server features',
    [
      ['tools', 'Tools'],
      ['validation', 'Input validation and schemas'],
      ['resources', 'Resources and templates'],
      ['prompts', 'Prompts'],
      ['completions', 'Completions'],
      ['programmatic', 'Programmatic definitions'],
      ['client-requests', 'Asking the client'],
      ['client-logging', 'Client logging and progress'],
      ['subscriptions', 'Resource subscriptions'],
      ['apps', 'MCP Apps'],
      ['tasks', 'Tasks'],
      ['skills', 'Skills'],
      ['runtime', 'Changes at run time'],
      ['compose', 'Composing apps'],
    ],
  ],
  [
    'Security',
    [
      ['auth', 'Authorization'],
      ['guards', 'Guards, filters, rate limits'],
    ],
  ],
  [
    'Serving',
    [
      ['app', 'The app and the context'],
      ['stdio', 'stdio'],
      ['http', 'Streamable HTTP'],
      ['transports', 'Transports of your own'],
      ['runtimes-workers', 'Cloudflare Workers'],
      ['scale-out', 'Scale-out'],
      ['eras', 'Two eras, one handler'],
      ['protocol', 'Protocol support'],
    ],
  ],
  [
    'Clients and gateways',
    [
      ['client', 'Client'],
      ['proxy', 'Proxying a server'],
      ['openapi', 'OpenAPI services as tools'],
    ],
  ],
  [
    'Tooling',
    [
      ['cli', 'The CLI'],
      ['contract', 'The contract'],
      ['testing', 'Testing'],
      ['observability', 'Observability'],
      ['benchmarks', 'Benchmarks'],
    ],
  ],
];

const pages = readdirSync(DOCS).filter((name) => name.endsWith('.md'));
const listed = new Set(['index', 'getting-started', ...GUIDES.flatMap(([, items]) => items.map(([page]) => page))]);
const unlisted = pages.map((name) => name.slice(0, -3)).filter((page) => !listed.has(page));
const titleOf = (page) => /^# (.+)$/m.exec(readFileSync(join(DOCS, `${page}.md`), 'utf8'))?.[1] ?? page;

const sidebar = [
  { text: 'Getting started', items: GETTING_STARTED },
  ...GUIDES.map(([text, items]) => ({
    text,
    collapsed: false,
    items: items.filter(([page]) => pages.includes(`${page}.md`)).map(([page, label]) => ({ text: label, link: `/${page}` })),
  })),
  ...(unlisted.length > 0 ? [{ text: 'More', items: unlisted.map((page) => ({ text: titleOf(page), link: `/${page}` })) }] : []),
];
if (existsSync(REFERENCE_SIDEBAR)) {
  sidebar.push({
    text: 'API reference',
    collapsed: true,
    items: [{ text: 'Packages', link: '/reference/' }, ...JSON.parse(readFileSync(REFERENCE_SIDEBAR, 'utf8'))],
  });
}

const outputs = existsSync(OUTPUTS) ? JSON.parse(readFileSync(OUTPUTS, 'utf8')) : {};
const sitePages = new Set([...pages, ...(existsSync(join(DOCS, 'reference')) ? ['reference/index.md'] : [])]);

export default defineConfig({
  title: 'mcpkit',
  description: 'A declarative TypeScript framework for Model Context Protocol servers',
  // DOCS_BASE=/mcpkit/ when the site is served from a sub-path (e.g. a project's GitHub Pages).
  base: process.env.DOCS_BASE || '/',
  srcDir: '.',
  srcExclude: ['examples/**', 'test/**', 'dist/**', 'node_modules/**'],
  outDir: '.site/dist',
  cacheDir: '.site/cache',
  lastUpdated: false,
  // Every internal link must resolve: the build fails on a dead one (the browser test then checks anchors).
  ignoreDeadLinks: false,
  markdown: {
    anchor: { slugify: githubSlug, slugifyWithState },
    // `{…}` after a heading is literal text on GitHub: keep it so here.
    attrs: { disable: true },
    config(md) {
      md.use(literalInlineCodePlugin);
      md.use(examplesPlugin, { docs: DOCS, outputs });
      md.use(repositoryLinksPlugin, { docs: DOCS, pages: sitePages });
    },
  },
  // The local search index (one chunk, loaded when the search opens) is the only chunk past Vite's 500 kB warning.
  vite: { build: { chunkSizeWarningLimit: 4096 } },
  themeConfig: {
    nav: [
      { text: 'Getting started', link: '/getting-started' },
      { text: 'Guides', link: '/tools' },
      ...(existsSync(REFERENCE_SIDEBAR) ? [{ text: 'API reference', link: '/reference/' }] : []),
    ],
    sidebar,
    search: { provider: 'local' },
    outline: { level: [2, 3] },
    socialLinks: [{ icon: 'github', link: REPOSITORY }],
    // The reference is generated from the packages' JSDoc: that is where it is edited. The
    // function runs in the browser, serialized on its own: it names the repository itself.
    editLink: {
      pattern: ({ filePath }) =>
        filePath.startsWith('reference/')
          ? 'https://github.com/mcpkit/mcpkit/tree/main/packages'
          : `https://github.com/mcpkit/mcpkit/edit/main/docs/${filePath}`,
      text: 'Edit this page on GitHub',
    },
  },
});
