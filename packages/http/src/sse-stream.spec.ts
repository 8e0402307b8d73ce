import type { EventStore, StoredEvent } from './event-store';
import { EventStream } from './event-stream';
import { SseStream, type SseStreamOptions } from './sse-stream';

/** A store that answers each append only when the test says so (a shared store's round trip). */
class SlowStore implements EventStore {
  readonly events: StoredEvent[] = [];
  /** Appends the store has not answered yet, oldest first. */
  readonly waiting: Array<{ event: StoredEvent; settle: (error?: Error) => void }> = [];

  append(_session: string, _stream: string, event: StoredEvent): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({
        event,
        settle: (error) => {
          if (error) return reject(error);
          this.events.push(event);
          resolve();
        },
      });
    });
  }

  after(): StoredEvent[] {
    return [...this.events];
  }

  deleteSession(): void {}

  /** Settles the oldest waiting append (`error`: the store failed it). */
  async settle(error?: Error): Promise<void> {
    this.waiting.shift()!.settle(error);
    await flush();
  }
}

async function flush(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
}

function optionsWith(store: EventStore | undefined, overrides: Partial<SseStreamOptions> = {}): SseStreamOptions {
  return {
    store,
    sessionId: 'session',
    priming: false,
    retryMs: 1000,
    keepAliveMs: 0,
    limits: { maxMessageBytes: 1 << 20, maxBatchBytes: 1 << 20 },
    maxBufferedBytes: 1 << 20,
    ...overrides,
  };
}

/** The SSE text a client has received, and whether its response ended. */
function reader(): { body: EventStream; text: () => string; ended: () => boolean } {
  const body = new EventStream();
  const chunks: string[] = [];
  let ended = false;
  body.pipe({
    write: (text) => chunks.push(text),
    end: () => {
      ended = true;
    },
    destroy: () => {},
    bufferedBytes: 0,
  });
  return { body, text: () => chunks.join(''), ended: () => ended };
}

/** A stream of POST `p1` over `store`, with a reader attached. */
function attachedStream(store: EventStore, overrides: Partial<SseStreamOptions> = {}) {
  const stream = new SseStream('p1', optionsWith(store, overrides));
  const client = reader();
  stream.attach(client.body);
  return { stream, client };
}

const note = (n: number) => ({ jsonrpc: '2.0' as const, method: 'notifications/progress', params: { n } });

describe('SseStream over a store that answers later', () => {
  it('sends an event only once the store holds it, in order', async () => {
    const store = new SlowStore();
    const { stream, client } = attachedStream(store);
    stream.send(note(1));
    stream.send(note(2));
    await flush();
    expect(client.text()).not.toContain('data: {');

    await store.settle();
    expect(client.text()).toContain('id: p1_1\n');
    expect(client.text()).not.toContain('id: p1_2\n');

    await store.settle();
    expect(client.text().indexOf('id: p1_1\n')).toBeLessThan(client.text().indexOf('id: p1_2\n'));
  });

  it('holds a later event behind an earlier one still waiting, whatever order the store answers in', async () => {
    const store = new SlowStore();
    const { stream, client } = attachedStream(store);
    stream.send(note(1));
    stream.send(note(2));
    // The second append fails first: the first event still goes out before it.
    const [first, second] = store.waiting.splice(0);
    second!.settle(new Error('down'));
    await flush();
    expect(client.text()).not.toContain('id:');
    first!.settle();
    await flush();
    const text = client.text();
    expect(text.indexOf('id: p1_1\n')).toBeGreaterThanOrEqual(0);
    expect(text.indexOf('id: p1_1\n')).toBeLessThan(text.indexOf('id: p1_2\n'));
  });

  it('ends the response only after the final event went out', async () => {
    const store = new SlowStore();
    const { stream, client } = attachedStream(store);
    stream.complete({ jsonrpc: '2.0', id: 7, result: {} });
    expect(stream.isComplete).toBe(true);
    await flush();
    expect(client.ended()).toBe(false);

    await store.settle();
    expect(client.text()).toContain('"id":7');
    expect(client.ended()).toBe(true);
  });

  it('waits on the store for the priming event too', async () => {
    const store = new SlowStore();
    const { client } = attachedStream(store, { priming: true });
    expect(client.text()).toBe('');
    await store.settle();
    expect(client.text()).toBe('id: p1_1\nretry: 1000\ndata: \n\n');
  });

  it('does not send twice an event a resumption already replayed from the store', async () => {
    const store = new SlowStore();
    // The first reader is attached and gets the event live.
    const { stream } = attachedStream(store);
    stream.send(note(1));
    // The append lands but its frame has not gone out yet when the client resumes.
    store.waiting.shift()!.settle();
    const again = reader();
    stream.attach(again.body, store.after());
    await flush();
    expect(again.text().match(/id: p1_1\n/g)).toHaveLength(1);
  });

  it('fails the stream when the store cannot keep an event, and still delivers what it sent live', async () => {
    const store = new SlowStore();
    const { stream, client } = attachedStream(store, { onStoreError: () => {} });
    const failed = jest.fn();
    stream.onStoreFailed = failed;
    stream.send(note(1));
    await store.settle(new Error('store down'));
    expect(failed).toHaveBeenCalledTimes(1);
    expect(client.text()).toContain('id: p1_1\n');
  });
});

describe('SseStream over a synchronous store', () => {
  it('writes each event at once', () => {
    const appended: string[] = [];
    const store: EventStore = {
      append: (_s, _st, event) => {
        appended.push(event.id);
      },
      after: () => [],
      deleteSession: () => {},
    };
    const { stream, client } = attachedStream(store);
    stream.send(note(1));
    expect(appended).toEqual(['p1_1']);
    expect(client.text()).toContain('id: p1_1\n');
    stream.complete({ jsonrpc: '2.0', id: 1, result: {} });
    expect(client.ended()).toBe(true);
  });
});
