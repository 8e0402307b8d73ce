import type { ToolDefinition } from '../../scanner/definitions';
import { indexTools, rankTools, wordsOf } from './tool-search';

const tool = (name: string, description = '', title?: string) =>
  ({ name, entry: { name, description, title, inputSchema: { type: 'object' } } }) as unknown as ToolDefinition;

describe('wordsOf', () => {
  it('splits camelCase, snake_case and punctuation, lowercase', () => {
    expect(wordsOf('createNote search_notes, Fetch-URL v2')).toEqual(['create', 'note', 'search', 'notes', 'fetch', 'url', 'v2']);
  });

  it('keeps the letters of every script: accented words whole, non-Latin words found', () => {
    expect(wordsOf('Supprime définitivement, ÉtéNote')).toEqual(['supprime', 'définitivement', 'été', 'note']);
    expect(wordsOf('ノート 削除')).toEqual(['ノート', '削除']);
    expect(wordsOf('.*+?^${}()|[]\\ \u0000\ud800')).toEqual([]);
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

  it('finds a tool by a word of its description in any script', () => {
    const translated = indexTools([tool('supprimer_note', 'Supprime une note définitivement'), tool('ノート削除', 'ノート を 削除 します')]);
    expect(rankTools(translated, 'définitivement').map((found) => found.name)).toEqual(['supprimer_note']);
    expect(rankTools(translated, '削除').map((found) => found.name)).toEqual(['ノート削除']);
  });

  it('orders ties by name', () => {
    expect(names('note notes')).toEqual(expect.arrayContaining(['create_note', 'delete_note', 'search_notes']));
    const tie = rankTools(indexTools([tool('b_x'), tool('a_x')]), 'x').map((found) => found.name);
    expect(tie).toEqual(['a_x', 'b_x']);
  });
});
