import { AJV_FORMAT_NAMES } from './check-field-options';

describe('AJV_FORMAT_NAMES', () => {
  it('is the installed ajv-formats list, name for name', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { formatNames } = require('ajv-formats/dist/formats') as { formatNames: string[] };
    expect([...AJV_FORMAT_NAMES].sort()).toEqual([...formatNames].sort());
  });
});

describe('checkFieldFormat', () => {
  it('takes a name only a newer ajv-formats knows from the installed table, and refuses an unknown one', () => {
    jest.isolateModules(() => {
      jest.doMock('ajv-formats/dist/formats', () => ({ formatNames: ['date', 'iso-week'] }));
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { checkFieldFormat } = require('./check-field-options') as typeof import('./check-field-options');
      expect(() => checkFieldFormat('Dto.week', 'iso-week', { type: 'string' })).not.toThrow();
      expect(() => checkFieldFormat('Dto.when', 'date', { type: 'string' })).not.toThrow();
      expect(() => checkFieldFormat('Dto.odd', 'no-such-format', { type: 'string' })).toThrow(/no validator knows/);
    });
    jest.dontMock('ajv-formats/dist/formats');
  });
});
