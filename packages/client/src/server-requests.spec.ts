import { declaredCapabilities } from './server-requests';

const handler = () => ({});

describe('declaredCapabilities', () => {
  it('declares a capability for each handler given, and none without one', () => {
    expect(declaredCapabilities({})).toEqual({});
    expect(declaredCapabilities({ 'elicitation/create': handler, 'sampling/createMessage': handler, 'roots/list': handler })).toEqual({
      elicitation: { form: {} },
      sampling: {},
      roots: {},
    });
  });

  it('takes the sub-flags given for a handled capability, drops those without a handler, keeps experimental and extensions', () => {
    expect(
      declaredCapabilities({ 'elicitation/create': handler }, {
        elicitation: { form: {}, url: {} },
        sampling: {},
        experimental: { x: {} },
        extensions: { 'io.example/y': {} },
      } as never),
    ).toEqual({ elicitation: { form: {}, url: {} }, experimental: { x: {} }, extensions: { 'io.example/y': {} } });
  });
});
