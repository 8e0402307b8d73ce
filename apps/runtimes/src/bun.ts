/** What this app uses of Bun's global (no @types/bun: the fixture type-checks on Node). */
declare const Bun: {
  serve(options: { port: number; hostname: string; fetch: (request: Request) => Promise<Response> }): { port: number };
};

/** The fetch handler on Bun's own server; returns its URL. */
export function serveBun(mcp: (request: Request) => Promise<Response>, port: number): string {
  const server = Bun.serve({ port, hostname: '127.0.0.1', fetch: mcp });
  return `http://127.0.0.1:${server.port}/mcp`;
}
