import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

let started: Promise<string> | undefined;

/**
 * An OTLP/HTTP endpoint that accepts every export and keeps nothing, for the rows with
 * OpenTelemetry on: the server under test records, batches and sends its spans and metrics as it
 * would to a collector, and no collector's work is counted. Started once, on first use; it does
 * not keep the bench alive.
 */
export function otlpSink(): Promise<string> {
  started ??= new Promise((resolve) => {
    const server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'content-type': request.headers['content-type'] ?? 'application/x-protobuf' });
        response.end();
      });
    });
    server.listen(0, '127.0.0.1', () => {
      server.unref();
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    });
  });
  return started;
}
