import { AJV_FORMAT_NAMES } from './check-field-options';

describe('AJV_FORMAT_NAMES', () => {
  it('is the installed ajv-formats list, name for name', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { formatNames } = require('ajv-formats/dist/formats') as { formatNames: string[] };
    expect([...AJV_FORMAT_NAMES].sort()).toEqual([...formatNames].sort());
  });
});
