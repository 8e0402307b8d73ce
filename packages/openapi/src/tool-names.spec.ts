import { fallbackName, NameAllocator, sanitizeName } from './tool-names';

describe('tool names', () => {
  it('keeps what MCP allows and folds everything else into one underscore', () => {
    expect(sanitizeName('get-board')).toBe('get-board');
    expect(sanitizeName('pets.list')).toBe('pets.list');
    expect(sanitizeName('Get pet (by id)!')).toBe('Get_pet_by_id');
    expect(sanitizeName('ünïcödé')).toBe('n_c_d');
    expect(sanitizeName('!!!')).toBe('operation');
    expect(sanitizeName('x'.repeat(200))).toHaveLength(128);
  });

  it('names an operation without operationId by its method and path', () => {
    expect(fallbackName('GET', '/pet/{petId}/photos')).toBe('get_pet_petId_photos');
    expect(fallbackName('POST', '/')).toBe('post');
  });

  it('hands out each name once, in order, within 128 characters', () => {
    const names = new NameAllocator();
    expect([names.take('a'), names.take('a'), names.take('a'), names.take('a_2')]).toEqual(['a', 'a_2', 'a_3', 'a_2_2']);
    const long = 'y'.repeat(128);
    expect(names.take(long)).toBe(long);
    const second = names.take(long);
    expect(second).toHaveLength(128);
    expect(second.endsWith('_2')).toBe(true);
  });
});
