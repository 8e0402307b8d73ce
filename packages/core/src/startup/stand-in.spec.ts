import { lazyExports, standIn } from './stand-in';

// What TypeScript's CommonJS output does with a required module (tsc's helpers, verbatim in shape).
const importDefault = (mod: unknown) => ((mod as { __esModule?: boolean }).__esModule ? mod : { default: mod }) as { default: unknown };
const exportStar = (from: object, to: Record<string, unknown>) => {
  for (const key in from) {
    if (key === 'default' || Object.prototype.hasOwnProperty.call(to, key)) continue;
    const desc = Object.getOwnPropertyDescriptor(from, key);
    Object.defineProperty(
      to,
      key,
      desc && !('get' in desc) && !desc.writable && !desc.configurable ? desc : { enumerable: true, get: () => (from as Record<string, unknown>)[key] },
    );
  }
};

describe('standIn', () => {
  it('loads nothing until used, then behaves as the module: interop, calls and property reads', () => {
    let loads = 0;
    const real = Object.assign((text: string) => `checked ${text}`, { extra: 42 });
    (real as unknown as { default: unknown }).default = real;
    const module = standIn(() => {
      loads++;
      return real;
    });
    const imported = importDefault(module);
    expect(loads).toBe(0);
    expect((imported.default as (text: string) => string)('a')).toBe('checked a');
    expect((module as (text: string) => string)('b')).toBe('checked b');
    expect((module as { extra: number }).extra).toBe(42);
    expect(loads).toBe(1);
  });

  it('a module without a default export is its own default', () => {
    const module = standIn(() => ({ parse: (text: string) => text.length })) as { default: { parse(text: string): number } };
    expect(module.default.parse('abc')).toBe(3);
  });

  it('constructs the real class, and instanceof is false until that class exists, then true for its instances', () => {
    let loads = 0;
    class Stream {
      constructor(readonly fd: number) {}
    }
    const Deferred = standIn(() => {
      loads++;
      return Stream;
    }) as typeof Stream;
    expect({} instanceof Deferred).toBe(false);
    expect(loads).toBe(0);
    const stream = new Deferred(2);
    expect(stream).toBeInstanceOf(Stream);
    expect(stream.fd).toBe(2);
    expect(stream instanceof Deferred).toBe(true);
    expect({} instanceof Deferred).toBe(false);
    expect(loads).toBe(1);
  });

  it('a load that throws throws at the first use, where a caller can see it', () => {
    const module = standIn(() => {
      throw new Error('missing');
    }) as () => void;
    expect(() => module()).toThrow('missing');
  });
});

describe('lazyExports', () => {
  it('a re-export binds every known name to a getter and loads the module when one is first read', () => {
    let loads = 0;
    const reexported: Record<string, unknown> = {};
    exportStar(
      lazyExports(['IsEmail', 'IS_EMAIL'], () => {
        loads++;
        return { IsEmail: () => 'decorator', IS_EMAIL: 'isEmail' };
      }) as object,
      reexported,
    );
    expect(Object.keys(reexported)).toEqual(['IsEmail', 'IS_EMAIL']);
    expect(loads).toBe(0);
    expect(reexported.IS_EMAIL).toBe('isEmail');
    expect((reexported.IsEmail as () => string)()).toBe('decorator');
    expect(loads).toBe(1);
  });

  it('a module with no run-time exports (types only) is never loaded', () => {
    let loads = 0;
    const reexported: Record<string, unknown> = {};
    exportStar(
      lazyExports([], () => {
        loads++;
        return {};
      }) as object,
      reexported,
    );
    expect(Object.keys(reexported)).toEqual([]);
    expect(loads).toBe(0);
  });
});
