// Imported by dto-to-json-schema.ts before class-validator: it must run before class-validator loads.
import { Module } from 'node:module';
import { dirname } from 'node:path';

/**
 * Loads class-validator with its phone-number metadata deferred. class-validator's index loads
 * `libphonenumber-js/max` (150 KB of metadata in ~70 modules: ~20 ms and ~3 MB at start-up, a
 * sixth of an mcpkit server's cold start on Node 24) for `@IsPhoneNumber` alone. While
 * class-validator loads, the module cache holds a stand-in for that module whose first use loads
 * the real one; the stand-in leaves the cache as soon as class-validator has loaded, so any other
 * `require` gets the real module. Does nothing when class-validator was loaded already (an app
 * that imports its DTOs before mcpkit), or under a module system without `require.cache` (jest).
 */
function loadClassValidatorWithPhoneMetadataDeferred(): void {
  let phone: string;
  try {
    const classValidator = require.resolve('class-validator');
    if (require.cache[classValidator]) return;
    phone = require.resolve('libphonenumber-js/max', { paths: [dirname(classValidator)] });
    if (require.cache[phone]) return;
  } catch {
    // Resolved differently (another class-validator layout): load everything as usual.
    return;
  }
  let real: object | undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const load = () => (real ??= require(phone) as object);
  // The real export is a function with properties (parsePhoneNumber, …): a callable stand-in.
  const standIn = new Module(phone);
  standIn.filename = phone;
  standIn.loaded = true;
  standIn.exports = new Proxy(() => undefined, {
    get: (_, key) => Reflect.get(load(), key),
    has: (_, key) => Reflect.has(load(), key),
    apply: (_, self, args) => Reflect.apply(load() as (...args: unknown[]) => unknown, self, args),
  });
  require.cache[phone] = standIn;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require('class-validator');
  } finally {
    if (require.cache[phone] === standIn) delete require.cache[phone];
  }
}

loadClassValidatorWithPhoneMetadataDeferred();
