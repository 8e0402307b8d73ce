// The guarded-call and JWT rows of pnpm bench (#14): mcpkit's echo behind its pipeline and its
// resource server. Same arguments as the testbed (`stdio` | `http`, PORT, HOST), and:
//   BENCH_GUARDED=1  echo has @RequireScopes('bench') and a guard (else it is a plain tool)
//   BENCH_AUTH=fixed the caller is a fixed AuthInfo (stdio: the auth hook; HTTP: a verifier
//                    that names it for any token, so the row is the pipeline's cost alone)
//   BENCH_MOUNTED=1  echo is mounted into a gateway app (createApp({ imports })) and renamed back
//   BENCH_AUTH=jwt   HTTP only: tokens are ES256 JWTs checked by jwtVerifier against a key set
//                    this process publishes as a stub authorization server on AS_PORT (its
//                    metadata and /jwks), where GET /bench-token hands the bench a token
import 'reflect-metadata';
import { createSign, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createServer } from 'node:http';
import { createApp, RequireScopes, Tool, UseGuards, type AuthInfo, type Guard, type RequestContext } from '@mcpkit/core';
import { serveStdio } from '@mcpkit/stdio';
import { IsString } from 'class-validator';

class EchoInput {
  @IsString()
  text: string;
}

/** A guard with something to read: the caller's subject. */
class KnownCaller implements Guard {
  canActivate(ctx: RequestContext): boolean {
    return ctx.auth?.subject === 'bench';
  }
}

class PlainTools {
  @Tool({ description: 'Returns the text it was given' })
  echo(input: EchoInput): string {
    return input.text;
  }
}

class GuardedTools {
  @Tool({ description: 'Returns the text it was given, to a caller with the bench scope' })
  @RequireScopes('bench')
  @UseGuards(KnownCaller)
  echo(input: EchoInput): string {
    return input.text;
  }
}

const CALLER: AuthInfo = Object.freeze({ subject: 'bench', issuer: 'bench', scopes: Object.freeze(['bench']) });

/** An ES256 JWT signed with node:crypto (the bench needs no JOSE library of its own). */
function sign(claims: Record<string, unknown>, key: KeyObject): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${part({ alg: 'ES256', kid: 'bench', typ: 'at+jwt' })}.${part(claims)}`;
  const signature = createSign('SHA256').update(input).sign({ key, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

const mode = process.argv[2] ?? 'stdio';
const auth = process.env.BENCH_AUTH ?? 'none';
const own = createApp({ name: 'bench-auth', version: '1.0.0', providers: [process.env.BENCH_GUARDED === '1' ? GuardedTools : PlainTools] });
// BENCH_MOUNTED=1: the same echo mounted into a gateway and renamed back to `echo` (#30: a
// mounted tool costs what a direct one does).
const app =
  process.env.BENCH_MOUNTED === '1'
    ? createApp({
        name: 'bench-gateway',
        version: '1.0.0',
        providers: [],
        imports: [{ app: own, prefix: 'bench' }],
        transforms: [{ tool: 'bench_echo', name: 'echo' }],
      })
    : own;

if (mode === 'stdio') {
  serveStdio(app, auth === 'fixed' ? { auth: () => CALLER } : {});
} else {
  const host = process.env.HOST ?? '127.0.0.1';
  const port = Number(process.env.PORT ?? 3000);
  const resource = `http://${host}:${port}/mcp`;
  const issuer = `http://${host}:${process.env.AS_PORT ?? 0}`;
  void (async () => {
    const { serveHttp } = await import('@mcpkit/fastify');
    const { jwtVerifier } = await import('@mcpkit/http');
    if (auth === 'jwt') {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const jwks = JSON.stringify({ keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'bench', alg: 'ES256', use: 'sig' }] });
      const documents: Record<string, () => string> = {
        '/.well-known/oauth-authorization-server': () => JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }),
        '/jwks': () => jwks,
        '/bench-token': () => {
          const now = Math.floor(Date.now() / 1000);
          return JSON.stringify({ token: sign({ iss: issuer, sub: 'bench', aud: resource, scope: 'bench', iat: now, exp: now + 3_600 }, privateKey) });
        },
      };
      const as = createServer((req, res) => {
        const document = documents[req.url ?? ''];
        if (document) res.writeHead(200, { 'content-type': 'application/json' }).end(document());
        else res.writeHead(404).end();
      });
      await new Promise<void>((resolve) => as.listen(Number(process.env.AS_PORT), host, resolve));
      as.unref();
    }
    const verifier = auth === 'jwt' ? jwtVerifier({ issuer }) : { verify: () => CALLER };
    const server = await serveHttp(app, { host, port, ...(auth === 'none' ? {} : { auth: { resource, authorizationServers: [issuer], verifier } }) });
    const stop = () => void server.close().then(() => process.exit(0));
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  })();
}
