// The markdown-it rules that make docs/*.md, written for GitHub, read the same on the site.
import { existsSync, readFileSync } from 'node:fs';
import { join, posix, relative, resolve } from 'node:path';

export const REPOSITORY = 'https://github.com/mcpkit/mcpkit';
const BLOB = `${REPOSITORY}/blob/main`;
const MARKER = /^<!-- example: ([\w.-]+) -->\s*$/;

/**
 * Inline code is literal on GitHub; on the site the page is a Vue template, so `{{ … }}` in it
 * (a workflow's `${{ github.base_ref }}`) must not be read as an interpolation.
 */
export function literalInlineCodePlugin(md) {
  const render = md.renderer.rules.code_inline;
  md.renderer.rules.code_inline = (tokens, index, options, env, self) => render(tokens, index, options, env, self).replace(/^<code/, '<code v-pre');
}

/**
 * GitHub's heading ids (lower case, punctuation dropped, one hyphen per space), so the
 * `page.md#anchor` links the pages already use land on the same heading on the site.
 */
export function githubSlug(text) {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/**
 * The heading ids typedoc-plugin-markdown links its API pages by (underscores and runs of
 * separators become one hyphen): the pages under reference/ are its output.
 */
export function typedocSlug(text) {
  return text
    .toLowerCase()
    .trim()
    .replace(/[^\w\s-]/g, '')
    .replace(/[\s_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Each page's heading ids by the rules its links were written for. */
export function slugifyWithState(text, state) {
  return (state.env.relativePath ?? '').startsWith('reference/') ? typedocSlug(text) : githubSlug(text);
}

const escapeHtml = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * `<!-- example: file -->` before a code block: the block shows docs/examples/<file> as it is
 * (docs/test/examples.spec.ts keeps the page's copy equal to it), under a caption linking the
 * file, followed by what CI saw when it ran the example, if `outputs` has it.
 */
export function examplesPlugin(md, { docs, outputs }) {
  md.core.ruler.push('mcpkit_examples', (state) => {
    const tokens = state.tokens;
    for (let index = 0; index < tokens.length; index++) {
      const match = tokens[index].type === 'html_block' && MARKER.exec(tokens[index].content.trim());
      if (!match) continue;
      const file = match[1];
      const path = join(docs, 'examples', file);
      if (!existsSync(path)) throw new Error(`${state.env.relativePath}: <!-- example: ${file} --> names no file in docs/examples`);
      const fence = tokens[index + 1];
      if (fence?.type !== 'fence') throw new Error(`${state.env.relativePath}: <!-- example: ${file} --> is not followed by a code block`);
      fence.content = readFileSync(path, 'utf8');
      tokens[index].content =
        `<p class="example-source">Example <a href="${BLOB}/docs/examples/${file}" target="_blank" rel="noreferrer">docs/examples/${file}</a>,` +
        ` type-checked and run by CI</p>\n`;
      const output = outputs[file];
      if (!output) continue;
      const caption = new state.Token('html_block', '', 0);
      caption.content = `<p class="example-output">What CI saw when <code>${escapeHtml(output.spec)}</code> ran it</p>\n`;
      const shown = new state.Token('fence', 'code', 0);
      shown.info = 'text';
      shown.content = output.lines.join('\n') + '\n';
      shown.markup = '```';
      shown.map = fence.map;
      tokens.splice(index + 2, 0, caption, shown);
      index += 3;
    }
  });
}

/**
 * Links to files of the repository outside the site (../README.md, ../packages/…, examples/…)
 * become links to the file on GitHub: they work on GitHub's rendering as they are, and would be
 * dead links on the site.
 */
export function repositoryLinksPlugin(md, { docs, pages }) {
  const root = resolve(docs, '..');
  md.core.ruler.push('mcpkit_repository_links', (state) => {
    const page = join(docs, state.env.relativePath ?? '');
    for (const block of state.tokens) {
      for (const token of block.children ?? []) {
        if (token.type !== 'link_open') continue;
        const href = token.attrGet('href');
        if (!href || /^([a-z]+:|#|\/)/i.test(href)) continue;
        const [path, hash] = href.split('#');
        const target = resolve(join(page, '..'), path);
        const fromDocs = relative(docs, target).split('\\').join('/');
        if (pages.has(fromDocs)) continue;
        const fromRoot = relative(root, target).split('\\').join('/');
        if (fromRoot.startsWith('..')) throw new Error(`${state.env.relativePath}: ${href} leaves the repository`);
        const kind = existsSync(target) && !/\.\w+$/.test(posix.basename(fromRoot)) ? 'tree' : 'blob';
        token.attrSet('href', `${REPOSITORY}/${kind}/main/${fromRoot}${hash ? `#${hash}` : ''}`);
        token.attrSet('target', '_blank');
        token.attrSet('rel', 'noreferrer');
      }
    }
  });
}
