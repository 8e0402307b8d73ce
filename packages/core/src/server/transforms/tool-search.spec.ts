import type { ToolDefinition } from '../../scanner/definitions';
import { indexTools, rankTools, wordsOf } from './tool-search';

const tool = (name: string, description = '', title?: string) =>
  ({ name, entry: { name, description, title, inputSchema: { type: 'object' } } }) as unknown as ToolDefinition;

describe('wordsOf', () => {
  it('splits camelCase, snake_case and punctuation, lowercase', () => {
    expect(wordsOf('createNote search_notes, Fetch-URL v2')).toEqual(['create', 'note', 'search', 'notes', 'fetch', 'url', 'v2']);
  });
});

describe('rankTools', () => {
  const tools = [
    tool('create_note', 'Stores a new note'),
    tool('delete_note', 'Deletes a note for good'),
    tool('search_notes', 'Finds notes by words in their title or body'),
    tool('get_weather', 'The weather forecast of a city', 'Weather'),
  ];
  const index = indexTools(tools);
  const names = (query: string) => rankTools(index, query).map((found) => found.name);

  it('puts a name match before a description match, and rare words before common ones', () => {
    expect(names('delete note')[0]).toBe('delete_note');
    expect(names('forecast')).toEqual(['get_weather']);
    // "note" is in three tools, "stores" in one: the rarer word decides.
    expect(names('stores note')[0]).toBe('create_note');
  });

  it('matches the prefix of a name word, and nothing for unrelated words', () => {
    expect(names('weath')).toEqual(['get_weather']);
    expect(names('zebra')).toEqual([]);
    expect(names('')).toEqual([]);
  });

  it('orders ties by name', () => {
    expect(names('note notes')).toEqual(expect.arrayContaining(['create_note', 'delete_note', 'search_notes']));
    const tie = rankTools(indexTools([tool('b_x'), tool('a_x')]), 'x').map((found) => found.name);
    expect(tie).toEqual(['a_x', 'b_x']);
  });
});
