import { readTraceContext, traceIdOf } from './trace-context';

const PARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('W3C trace context', () => {
  it('reads traceparent, tracestate and baggage from _meta (A19)', () => {
    expect(readTraceContext({ traceparent: PARENT, tracestate: 'vendor=x', baggage: 'user=ada' }, undefined)).toEqual({
      traceparent: PARENT,
      tracestate: 'vendor=x',
      baggage: 'user=ada',
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      parentId: '00f067aa0ba902b7',
      sampled: true,
    });
  });

  it('falls back to the HTTP headers, but never mixes the two sources', () => {
    expect(readTraceContext({}, { traceparent: ` ${PARENT} `, tracestate: 'a=1' })).toMatchObject({ traceparent: PARENT, tracestate: 'a=1' });
    expect(readTraceContext({ traceparent: PARENT }, { tracestate: 'from-header' })).not.toHaveProperty('tracestate');
    expect(readTraceContext(undefined, undefined)).toBeUndefined();
  });

  it('reads the sampled flag and accepts later versions with extra fields', () => {
    expect(readTraceContext({ traceparent: PARENT.replace(/01$/, '00') }, undefined)?.sampled).toBe(false);
    expect(traceIdOf('cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-what-the-future-holds')).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
  });

  it.each([
    ['version ff', 'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`],
    ['an all-zero parent id', `00-4bf92f3577b34da6a3ce929d0e0e4736-${'0'.repeat(16)}-01`],
    ['upper-case hex', '00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01'],
    ['extra fields on version 00', `${PARENT}-extra`],
    ['a short trace id', '00-4bf92f35-00f067aa0ba902b7-01'],
    ['a number', 42],
    ['two header values', [PARENT, PARENT]],
  ])('ignores %s: not W3C Trace Context, so the callee starts a new trace; no error (A19)', (_, traceparent) => {
    expect(traceIdOf(traceparent)).toBeUndefined();
    expect(readTraceContext({ traceparent } as Record<string, unknown>, undefined)).toBeUndefined();
  });
});
