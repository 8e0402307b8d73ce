import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

// Issue #27: every transport enters through `app.dispatcher.handle(body, channel)`. The
// connection's old doors (`receiveText`, `serveFrame`, `receive`) stay for one release as
// deprecated delegates for app authors; no transport of this repository, and no example, uses them.
const ROOT = join(__dirname, '..', '..', '..');
const PLACES = ['packages/stdio/src', 'packages/http/src', 'packages/fastify/src', 'packages/testing/src', 'packages/cli/src', 'docs/examples'];
const OLD_DOORS: readonly RegExp[] = [/\.\s*receiveText\s*\(/, /\.\s*serveFrame\s*\(/, /connection\s*!?\s*\)?\s*\.\s*receive\s*\(/i];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'dist' ? [] : sources(path);
    return /\.(ts|tsx|js|mjs|md)$/.test(name) && !/\.spec\.ts$/.test(name) ? [path] : [];
  });
}

/** Each line of `text` that opens an old door, as `file:line`. */
function oldDoors(file: string, text: string): string[] {
  return text.split('\n').flatMap((line, index) => (OLD_DOORS.some((door) => door.test(line)) ? [`${file}:${index + 1}`] : []));
}

describe('one way in: transports call only dispatcher.handle', () => {
  it.each(PLACES)('%s calls no receiveText, serveFrame or connection.receive', (place) => {
    const found = sources(join(ROOT, place)).flatMap((file) => oldDoors(relative(ROOT, file), readFileSync(file, 'utf8')));
    expect(found).toEqual([]);
  });

  it('sees an old door where one is written', () => {
    expect(oldDoors('x.ts', 'a\nawait connection.receiveText(line, { send });')).toEqual(['x.ts:2']);
    expect(oldDoors('x.ts', 'connection.serveFrame(frame, options)')).toEqual(['x.ts:1']);
    expect(oldDoors('x.ts', 'void session.connection.receive(message, { routed: true });')).toEqual(['x.ts:1']);
    expect(oldDoors('x.ts', 'return connection!.receive(body, options);')).toEqual(['x.ts:1']);
    // A MessageChannel's receive is the transport feeding its own channel, not a door of core.
    expect(oldDoors('x.ts', 'channel.receive(event.text);')).toEqual([]);
  });
});
