import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';

// What a server loads before its first request, checked in a fresh process on the built package
// (jest has its own module registry). Each module named here costs milliseconds and megabytes.
const CORE = join(__dirname, '..', 'dist', 'index.js');
const PHONE = require.resolve('libphonenumber-js/max', { paths: [dirname(require.resolve('class-validator'))] });

function run(script: string): unknown {
  const out = execFileSync(process.execPath, ['-e', script], {
    cwd: join(__dirname, '..'),
    encoding: 'utf8',
    timeout: 20_000,
    env: { ...process.env, LOG_LEVEL: 'warn' },
  });
  return JSON.parse(out);
}

const APP = `
  const { createApp, Tool } = require(${JSON.stringify(CORE)});
  const { IsString, IsPhoneNumber } = require('class-validator');
  class Input {}
  IsString()(Input.prototype, 'text');
  class Contact {}
  IsPhoneNumber()(Contact.prototype, 'phone');
  class Tools {
    echo(input) { return input.text; }
    call(input) { return 'calling ' + input.phone; }
  }
  Reflect.defineMetadata('design:paramtypes', [Input], Tools.prototype, 'echo');
  Reflect.defineMetadata('design:paramtypes', [Contact], Tools.prototype, 'call');
  Tool({ description: 'echo' })(Tools.prototype, 'echo', Object.getOwnPropertyDescriptor(Tools.prototype, 'echo'));
  Tool({ description: 'call' })(Tools.prototype, 'call', Object.getOwnPropertyDescriptor(Tools.prototype, 'call'));
  const app = createApp({ name: 't', version: '1', providers: [Tools] });
  const loaded = (part) => Object.keys(require.cache).some((file) => file.includes(part));
`;

describe('start-up module loading', () => {
  it('an app loads neither class-transformer (no DTO uses its decorators), ajv, fastify nor the phone metadata before its first call', () => {
    const loaded = run(`${APP}
      process.stdout.write(JSON.stringify({
        classTransformer: Object.keys(require.cache).some((file) => /class-transformer\\/cjs\\/index\\.js$/.test(file)),
        ajv: loaded('/ajv/'), fastify: loaded('/fastify/'), phone: loaded('/libphonenumber-js/'),
      }));`);
    expect(loaded).toEqual({ classTransformer: false, ajv: false, fastify: false, phone: false });
  });

  it('@IsPhoneNumber still validates: the metadata loads on first use, and a direct require gets the real module', () => {
    const result = run(`${APP}
      const { isPhoneNumber, validateSync } = require('class-validator');
      const contact = (phone) => Object.assign(new Contact(), { phone });
      const before = loaded('/libphonenumber-js/');
      const checks = { valid: isPhoneNumber('+14155552671'), invalid: isPhoneNumber('+1 123'), region: isPhoneNumber('020 7946 0958', 'GB') };
      const decorator = [validateSync(contact('+14155552671')).length, validateSync(contact('12')).length];
      const phone = require(${JSON.stringify(PHONE)});
      process.stdout.write(JSON.stringify({
        before, ...checks, decorator,
        realModule: require.cache[${JSON.stringify(PHONE)}].exports === phone && phone('+14155552671').country,
        parse: phone.parsePhoneNumber('+442079460958').country,
      }));`);
    expect(result).toEqual({ before: false, valid: true, invalid: false, region: true, decorator: [0, 1], realModule: 'US', parse: 'GB' });
  });
});
