import { deleteServer, JsonFileError, serverNames, setServer } from './json-edit';

const JSON_ONLY = { comments: false };
const JSONC = { comments: true };
const ENTRY = { command: '/usr/bin/node', args: ['cli.js', 'start', 'app.js', '--stdio', '--', '/tmp/a b'], env: { NOTES_DB: '/tmp/n.db' } };

describe('setServer and deleteServer: the other bytes stay as they were', () => {
  it.each([
    [
      'two-space JSON with others',
      '{\n  "mcpServers": {\n    "other": { "command": "x" },\n    "more": {"command":"y","args":[]}\n  },\n  "theme": "dark"\n}\n',
      JSON_ONLY,
    ],
    ['tabs and CRLF', '{\r\n\t"mcpServers": {\r\n\t\t"other": {\r\n\t\t\t"command": "x"\r\n\t\t}\r\n\t}\r\n}\r\n', JSON_ONLY],
    ['an empty mcpServers', '{\n  "mcpServers": {}\n}\n', JSON_ONLY],
    [
      'JSONC with comments and a trailing comma',
      '{\n  // my servers\n  "servers": {\n    /* kept */ "other": { "type": "stdio", "command": "x" }, // note\n  },\n  "inputs": [],\n}\n',
      JSONC,
    ],
    ['a one-line file', '{"mcpServers":{"other":{"command":"x"}},"z":1}', JSON_ONLY],
    ['a byte order mark', '\uFEFF{\n  "servers": {\n    "other": { "type": "stdio", "command": "x" }\n  }\n}\n', JSONC],
  ])('%s: add then remove gives the same bytes back', (_, before, syntax) => {
    const container = before.includes('"servers"') ? 'servers' : 'mcpServers';
    const added = setServer(before, container, 'notes', ENTRY, syntax);
    expect(added.outcome).toBe('added');
    expect(serverNames(added.text, container, syntax)).toContain('notes');
    // Every byte of the original is still there, in order: the edit only inserted.
    expect(added.text.length).toBeGreaterThan(before.length);
    expect(deleteServer(added.text, container, 'notes', syntax)).toBe(before);
  });

  it('leaves a comment on the last member’s line there, with or without a trailing comma', () => {
    const plain = '{\n  "servers": {\n    "a": 1 // about a\n  }\n}';
    const added = setServer(plain, 'servers', 'n', 2, JSONC).text;
    expect(added).toBe('{\n  "servers": {\n    "a": 1, // about a\n    "n": 2\n  }\n}');
    expect(deleteServer(added, 'servers', 'n', JSONC)).toBe(plain);
    const trailing = '{\n  "servers": {\n    "a": 1, /* about a */\n  }\n}';
    const added2 = setServer(trailing, 'servers', 'n', 2, JSONC).text;
    expect(added2).toBe('{\n  "servers": {\n    "a": 1, /* about a */\n    "n": 2,\n  }\n}');
    expect(deleteServer(added2, 'servers', 'n', JSONC)).toBe(trailing);
    // A block comment that runs on to the next line is not split: the member goes before it.
    const running = '{\n  "servers": {\n    "a": 1 /* runs\n    on */\n  }\n}';
    expect(setServer(running, 'servers', 'n', 2, JSONC).text).toBe('{\n  "servers": {\n    "a": 1,\n    "n": 2 /* runs\n    on */\n  }\n}');
  });

  it('adds the container where there is none, in the file’s own indentation, and parses back to the entry', () => {
    const before = '{\n    "theme": "dark"\n}\n';
    const { text } = setServer(before, 'mcpServers', 'notes', ENTRY, JSON_ONLY);
    expect(text.startsWith('{\n    "theme": "dark",\n    "mcpServers": {\n        "notes": {\n')).toBe(true);
    expect(JSON.parse(text)).toEqual({ theme: 'dark', mcpServers: { notes: ENTRY } });
  });

  it('writes a new file for empty text', () => {
    const { text, outcome } = setServer('', 'servers', 'notes', ENTRY, JSONC);
    expect(outcome).toBe('added');
    expect(JSON.parse(text)).toEqual({ servers: { notes: ENTRY } });
  });

  it('is idempotent: the same entry again changes nothing; a different one is replaced in place, the others untouched', () => {
    const before = '{\n  "mcpServers": {\n    "a": {"command":"x"},\n    "notes": {"command": "old"},\n    "z": {"command":"z"}\n  }\n}\n';
    const first = setServer(before, 'mcpServers', 'notes', ENTRY, JSON_ONLY);
    expect(first.outcome).toBe('replaced');
    expect(first.text.startsWith('{\n  "mcpServers": {\n    "a": {"command":"x"},\n    "notes": {\n      "command"')).toBe(true);
    expect(first.text.endsWith('},\n    "z": {"command":"z"}\n  }\n}\n')).toBe(true);
    expect(setServer(first.text, 'mcpServers', 'notes', ENTRY, JSON_ONLY)).toEqual({ text: first.text, outcome: 'unchanged' });
  });

  it('refuses to remove a server named twice, which would leave the one the client reads', () => {
    expect(() => deleteServer('{"servers": {"a": 1, "a": 2}}', 'servers', 'a', JSONC)).toThrow(/"a" 2 times/);
    expect(() => deleteServer('{"servers": {"a": 1}, "servers": {"a": 2}}', 'servers', 'a', JSONC)).toThrow(/"servers" 2 times/);
    // Names given twice elsewhere are not this edit's business.
    expect(deleteServer('{"x": 1, "x": 2, "servers": {"a": 1, "b": 2, "b": 3}}', 'servers', 'a', JSONC)).toBe('{"x": 1, "x": 2, "servers": { "b": 2, "b": 3}}');
  });

  it('removes a member in the middle or first with its comma and line, keeping comments', () => {
    const text = '{\n  "servers": {\n    // first\n    "a": 1,\n    "b": 2, // about b\n    "c": 3\n  }\n}';
    expect(deleteServer(text, 'servers', 'b', JSONC)).toBe('{\n  "servers": {\n    // first\n    "a": 1, // about b\n    "c": 3\n  }\n}');
    expect(deleteServer(text, 'servers', 'a', JSONC)).toBe('{\n  "servers": {\n    // first\n    "b": 2, // about b\n    "c": 3\n  }\n}');
    expect(deleteServer(text, 'servers', 'c', JSONC)).toBe('{\n  "servers": {\n    // first\n    "a": 1,\n    "b": 2 // about b\n  }\n}');
    expect(deleteServer(text, 'servers', 'nope', JSONC)).toBeUndefined();
    expect(deleteServer('{"x": 1}', 'servers', 'a', JSONC)).toBeUndefined();
  });

  it.each([
    ['not JSON', '{ "mcpServers": { "a": 1 ', JSON_ONLY, /at line 1, column/],
    ['a comment where the client reads strict JSON', '{\n  // hi\n  "mcpServers": {}\n}', JSON_ONLY, /InvalidCommentToken at line 2, column 3/],
    ['a trailing comma in strict JSON', '{"mcpServers": {},}', JSON_ONLY, /at line 1/],
    ['an array at the top', '[]', JSON_ONLY, /top level is not a JSON object/],
    ['a container that is not an object', '{"mcpServers": []}', JSON_ONLY, /"mcpServers" is not an object/],
    // The client reads the last one: an edit of the first would not be seen.
    [
      'the container twice',
      '{\n"mcpServers": {"a": 1},\n"mcpServers": {"b": 2}\n}',
      JSON_ONLY,
      /"mcpServers" 2 times \(lines 2, 3\), and a client reads only the last/,
    ],
    ['the server twice', '{"mcpServers": {"notes": 1, "notes": 2}}', JSON_ONLY, /"notes" 2 times/],
  ])('refuses %s', (_, text, syntax, message) => {
    expect(() => setServer(text, 'mcpServers', 'notes', ENTRY, syntax)).toThrow(JsonFileError);
    expect(() => setServer(text, 'mcpServers', 'notes', ENTRY, syntax)).toThrow(message);
  });
});
