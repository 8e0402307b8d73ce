import { readme } from './templates';

describe("the scaffold's README", () => {
  const start = '/usr/bin/node /p/node_modules/@mcpkit/cli/dist/cli.js start /p/dist/app.js --stdio';

  it('says the packages come from the tarballs packed into vendor/, with no npm install line that would fail', () => {
    const text = readme({ name: 'weather', transport: 'both' }, start, { checkout: '/src/mcpkit', pm: 'npm' });
    expect(text).toContain('packed the `@mcpkit/*` packages of the mcpkit\ncheckout at `/src/mcpkit` into `vendor/`');
    expect(text).toContain('`npm install` installs them from `vendor/`');
    expect(text).toContain('`overrides`');
    // Named only as what fails, never as a command line to run.
    expect(text).not.toMatch(/^\s*npm (install|i) +@mcpkit/m);
    expect(text).toContain('npx mcpkit install --client claude-desktop');
    expect(readme({ name: 'weather', transport: 'stdio' }, start, { checkout: '/src/mcpkit', pm: 'pnpm' })).toContain('`pnpm install` installs them');
  });

  it('names the range when the packages come from the registry', () => {
    const text = readme({ name: 'weather', transport: 'http' }, start, { registry: '^0.1.0' });
    expect(text).toContain('The `@mcpkit/*` packages come from the npm registry (`^0.1.0`).');
    expect(text).not.toContain('vendor/');
  });
});
