// pnpm bench:scale's mcpkit server: an `echo` tool and one subscribable resource over Streamable
// HTTP (serveHttp, sessions on), its caps raised past the bench's 10 000 sessions, streams and
// listens. The bench drives it over IPC (servers/scale-control.ts).
// Run: node --expose-gc mcpkit-scale-server.js   (PORT, HOST)
import 'reflect-metadata';
import { createApp, Resource, Tool } from '@mcpkit/core';
import { serveHttp } from '@mcpkit/fastify';
import { IsString } from 'class-validator';
import { serveControl } from './scale-control';

/** The resource every subscriber follows. */
export const SCALE_URI = 'bench://counter';

class EchoInput {
  @IsString()
  text: string;
}

let counter = 0;

class ScaleSurface {
  @Tool({ description: 'Returns the text it was given' })
  echo(input: EchoInput): string {
    return input.text;
  }

  @Resource({ uri: SCALE_URI, mimeType: 'text/plain', description: 'Counts the updates' })
  counter(): string {
    return String(counter);
  }
}

const app = createApp({ name: 'bench-scale', version: '1.0.0', providers: [ScaleSurface], subscriptions: true });
const CAP = 50_000;

void serveHttp(app, {
  host: process.env.HOST ?? '127.0.0.1',
  port: Number(process.env.PORT ?? 3000),
  maxSessions: CAP,
  maxListens: CAP,
  maxConnections: CAP,
}).then((server) => {
  serveControl(() => {
    counter += 1;
    app.resourceUpdated(SCALE_URI);
  });
  process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
});
