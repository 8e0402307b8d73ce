import { AnswerPacer } from './answer-pacer';

const PROGRESS = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } } as const;
const LOG = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } } as const;

describe('AnswerPacer', () => {
  let written: string[];
  let pacer: AnswerPacer<string>;

  beforeEach(() => {
    jest.useFakeTimers();
    written = [];
    pacer = new AnswerPacer<string>((item) => written.push(item), 10);
  });

  afterEach(() => {
    pacer.clear();
    jest.useRealTimers();
  });

  it('writes an answer at once when no progress went out, or only other notifications', () => {
    pacer.answer('a');
    pacer.sent(LOG);
    pacer.answer('b');
    expect(written).toEqual(['a', 'b']);
  });

  it('holds answers that follow a progress notification for the gap, in order', () => {
    pacer.sent(PROGRESS);
    pacer.answer('a');
    jest.advanceTimersByTime(4);
    pacer.sent(PROGRESS);
    pacer.answer('b');
    expect(written).toEqual([]);
    // Due at 10 and 14; each leaves in the immediate after its timer (the fake clock runs those a millisecond on).
    jest.advanceTimersByTime(7);
    expect(written).toEqual(['a']);
    jest.advanceTimersByTime(4);
    expect(written).toEqual(['a', 'b']);
    // The gap has passed: the next answer goes at once.
    pacer.answer('c');
    expect(written).toEqual(['a', 'b', 'c']);
  });

  it('writes what it holds on flush, and nothing after clear', () => {
    pacer.sent(PROGRESS);
    pacer.answer('a');
    pacer.flush();
    expect(written).toEqual(['a']);
    pacer.sent(PROGRESS);
    pacer.answer('b');
    pacer.clear();
    jest.advanceTimersByTime(100);
    expect(written).toEqual(['a']);
  });
});
