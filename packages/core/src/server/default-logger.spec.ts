import pino from 'pino';
import { createApp } from './create-app';
import { hasDefaultLogger } from './default-logger';

describe('hasDefaultLogger', () => {
  it('is true when createApp made the logger, false when the app was given one', () => {
    expect(hasDefaultLogger(createApp({ name: 'a', version: '1', providers: [] }))).toBe(true);
    expect(hasDefaultLogger(createApp({ name: 'a', version: '1', providers: [], logger: pino({ level: 'silent' }) }))).toBe(false);
  });
});
