// The notes board: an MCP Apps view (extension io.modelcontextprotocol/ui) built with the
// extension's App SDK. scripts/build-view.js bundles it into dist/board.html, which the notes
// server serves as ui://notes/board. Everything it shows and changes goes through its host:
// `board_notes` (a tool only the view may call) lists and searches, `create_note` adds.
import { App, applyDocumentTheme, applyHostFonts, applyHostStyleVariables, PostMessageTransport, type McpUiHostContext } from '@modelcontextprotocol/ext-apps';

/** A note as `board_notes` sends it in `structuredContent.notes`. */
interface BoardNote {
  id: number;
  title: string;
  body: string;
  tags: string[];
  updatedAt: string;
}

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`the board has no #${id}`);
  return found as T;
}

const list = element<HTMLUListElement>('notes');
const status = element<HTMLSpanElement>('status');
const query = element<HTMLInputElement>('query');
const search = element<HTMLFormElement>('search');
const form = element<HTMLFormElement>('new-note');
const title = element<HTMLInputElement>('title');
const body = element<HTMLTextAreaElement>('body');
const tags = element<HTMLInputElement>('tags');

const app = new App({ name: 'mcpkit notes board', version: '0.1.0' }, {});

function say(text: string): void {
  status.textContent = text;
}

function item(note: BoardNote): HTMLLIElement {
  const li = document.createElement('li');
  li.dataset.id = String(note.id);
  const heading = li.appendChild(document.createElement('div'));
  heading.className = 'title';
  heading.textContent = `#${note.id} ${note.title}`;
  if (note.body) {
    const text = li.appendChild(document.createElement('div'));
    text.className = 'body';
    text.textContent = note.body.length > 280 ? `${note.body.slice(0, 280)}…` : note.body;
  }
  if (note.tags.length > 0) {
    const labels = li.appendChild(document.createElement('div'));
    labels.className = 'tags';
    labels.textContent = note.tags.map((tag) => `#${tag}`).join(' ');
  }
  return li;
}

function render(notes: BoardNote[], searched: string): void {
  if (notes.length === 0) {
    const empty = document.createElement('li');
    empty.className = 'empty';
    empty.textContent = searched ? `No notes match “${searched}”.` : 'No notes yet: add the first one below.';
    list.replaceChildren(empty);
  } else list.replaceChildren(...notes.map(item));
  say(`${notes.length} ${notes.length === 1 ? 'note' : 'notes'}${searched ? ` matching “${searched}”` : ''}`);
}

// Answers can overtake each other while the user types: only the latest search is shown.
let searches = 0;

/** Lists the notes (those matching the search box, when it has text) through the host. */
async function refresh(): Promise<void> {
  const asked = ++searches;
  const text = query.value.trim();
  const result = await app.callServerTool({ name: 'board_notes', arguments: text ? { query: text } : {} });
  if (asked !== searches) return;
  if (result.isError) return say(result.content.map((block) => (block.type === 'text' ? block.text : '')).join(' '));
  render((result.structuredContent as { notes: BoardNote[] }).notes, text);
}

function applyHostContext(context: McpUiHostContext | undefined): void {
  if (context?.theme) applyDocumentTheme(context.theme);
  if (context?.styles?.variables) applyHostStyleVariables(context.styles.variables);
  if (context?.styles?.css?.fonts) applyHostFonts(context.styles.css.fonts);
}

search.addEventListener('submit', (event) => {
  event.preventDefault();
  void refresh();
});
query.addEventListener('input', () => void refresh());

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const labels = tags.value
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag.length > 0);
  void (async () => {
    // create_note is the model's tool too: the view calls it through its host like any tool.
    const result = await app.callServerTool({ name: 'create_note', arguments: { title: title.value, body: body.value, tags: labels } });
    if (result.isError) return say(result.content.map((block) => (block.type === 'text' ? block.text : '')).join(' '));
    const created = result.structuredContent as unknown as BoardNote;
    form.reset();
    await refresh();
    say(`Added #${created.id} ${created.title}`);
  })();
});

// Set before connecting: the host may send them as soon as the view is initialized.
app.ontoolinput = ({ arguments: args }) => {
  // show_board may be opened on a search (its `query` argument).
  if (typeof args?.query === 'string') query.value = args.query;
};
app.ontoolresult = () => void refresh();
app.onhostcontextchanged = applyHostContext;

void app.connect(new PostMessageTransport(window.parent, window.parent)).then(
  () => {
    applyHostContext(app.getHostContext());
    return refresh();
  },
  (error: unknown) => say(`Could not reach the host: ${(error as Error).message}`),
);
